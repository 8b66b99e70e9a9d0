import Dispatch

/// Runs asynchronous TimelineKit work (network requests) to its end from a synchronous
/// command. The command tree stays synchronous because an asynchronous root would turn
/// main.swift into an async entry point and start the concurrency runtime on `show`'s launch
/// path, which must stay as light as `cat`.
///
/// The work runs as a detached task on the cooperative pool while this thread waits; it never
/// runs on this thread, so the wait cannot deadlock it.
func waitFor<T: Sendable, Failure: Error>(_ operation: @escaping @Sendable () async throws(Failure) -> T) throws(Failure) -> T {
    let outcome = BlockingOutcome<T, Failure>()
    Task.detached {
        do throws(Failure) {
            outcome.result = .success(try await operation())
        } catch {
            outcome.result = .failure(error)
        }
        outcome.done.signal()
    }
    outcome.done.wait()
    return try outcome.result!.get()
}

/// Where ``waitFor(_:)``'s task leaves its result.
private final class BlockingOutcome<T: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked Sendable: `result` is written once by the task before `done.signal()` and read
    // only after `done.wait()` has returned, which orders the two.
    var result: Result<T, Failure>?
    let done = DispatchSemaphore(value: 0)
}
