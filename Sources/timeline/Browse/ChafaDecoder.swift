#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TimelineKit

/// Decodes a picture file into a terminal's graphics with `chafa` (Debian's `chafa` package), for
/// what the terminal cannot take as it is (sixel always; JPEG, GIF and WebP on kitty). The tool
/// never decodes a picture itself: chafa is a well-kept decoder, and it runs in a box:
/// - under `ulimit -v` (``addressSpaceKilobytes``), so a bomb that passed the header check
///   fails to allocate instead of taking the machine's memory;
/// - for at most ``timeLimit``, then killed;
/// - its output capped at ``outputLimit``: more is refused, not shown. Under the cap its output
///   is trusted: it is chafa's own encoding of pixels.
enum ChafaDecoder {
    /// 512 MiB of address space: a 40-megapixel picture decodes in under 200 MB.
    static let addressSpaceKilobytes = 524_288
    static let timeLimit: Duration = .seconds(5)
    static let outputLimit = 8 << 20
    /// chafa starts a thread per core by default, and each reserves address space (a stack, a
    /// malloc arena of 64 MiB): on a many-core machine that alone would pass the limit above.
    static let threads = 2

    enum Failure: Error, CustomStringConvertible {
        case notInstalled
        case failed(String)

        var description: String {
            switch self {
            case .notInstalled: "not drawn: install `chafa` to draw this picture here"
            case let .failed(reason): "not drawn: chafa \(reason)"
            }
        }
    }

    /// The protocol's name as `chafa --format` takes it.
    static func format(for graphics: TerminalGraphics) -> String? {
        switch graphics {
        case .kitty: "kitty"
        case .iTerm2: "iterm"
        case .sixel: "sixels"
        case .none: nil
        }
    }

    /// chafa's drawing of the file at `path` into `columns` × `rows` cells for `graphics`.
    static func decode(path: String, graphics: TerminalGraphics, columns: Int, rows: Int) throws(Failure) -> [UInt8] {
        guard let format = format(for: graphics) else { throw .failed("has no format for this terminal") }
        guard let chafa = ChildProcess.executablePath("chafa") else { throw .notInstalled }
        let arguments = ["sh", "-c", "ulimit -v \(addressSpaceKilobytes); exec \"$0\" \"$@\"", chafa,
                         "--format=\(format)", "--size=\(columns)x\(rows)", "--animate=off", "--threads=\(threads)", "--", path]
        let child: ChildProcess
        do throws(ChildProcess.SpawnError) {
            child = try ChildProcess(executable: "/bin/sh", arguments: arguments,
                                     descriptors: [STDIN_FILENO: .null, STDOUT_FILENO: .output, STDERR_FILENO: .null])
        } catch {
            throw .failed("could not start: \(error.reason)")
        }
        var output: [UInt8] = []
        var tooLarge = false
        let end = child.pump(deadline: ContinuousClock().now + timeLimit) { _, bytes in
            output += bytes
            if output.count > outputLimit { tooLarge = true }
            return !tooLarge
        }
        if end != .finished { child.kill() }
        let termination = child.wait()
        if tooLarge { throw .failed("wrote more than \(outputLimit >> 20) MiB") }
        if end == .timedOut { throw .failed("took more than \(timeLimit.components.seconds) s and was stopped") }
        guard termination == .exited(0) else { throw .failed("could not decode it") }
        return output
    }
}
