import Foundation

extension TimelineProcess {
    /// `run(_:input:)` on a thread of its own, awaited: a command that takes seconds (a server's
    /// retries, a large answer) holds no thread of Swift's cooperative pool meanwhile. That pool
    /// has as many threads as the machine has cores (two in CI), and the tests that wait on
    /// async events (`TimelineChangeSequenceTests`) starve past their time limit when long
    /// synchronous tests hold them all.
    func runOffThePool(_ arguments: [String]) async throws -> Result {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Result, any Error>) in
            Thread.detachNewThread { [self] in
                do {
                    continuation.resume(returning: try run(arguments))
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
