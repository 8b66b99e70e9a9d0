#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TimelineKit

/// What is typed or piped on standard input: one line (the code or token of `timeline login`)
/// or all of it (the text of `timeline post -`).
enum StandardInput {
    static var isTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Reads up to the first line feed (or the end of input), at most `limit` bytes, one byte at
    /// a time so nothing after the line is taken from a pipe another program shares. With
    /// `hidden` on a terminal, what is typed is not echoed (a token must not stay on screen).
    static func readLine(limit: Int = 8192, hidden: Bool = false) -> String? {
        let echo = hidden ? TerminalEcho.disable(on: STDIN_FILENO) : nil
        defer {
            if let echo {
                echo.restore()
                Terminal.emitError("\n")  // the Enter typed was not echoed either
            }
        }
        var bytes: [UInt8] = []
        while bytes.count < limit, let byte = try? FileDescriptor.standardInput.read(atMost: 1).first {
            if byte == 0x0A { return String(decoding: bytes, as: UTF8.self) }
            bytes.append(byte)
        }
        return bytes.isEmpty ? nil : String(decoding: bytes, as: UTF8.self)
    }

    /// Everything up to the end of input, or `nil` when there is more than `limit` bytes (nothing
    /// is cut silently: a post would go out truncated).
    static func readAll(limit: Int) -> String? {
        var bytes: [UInt8] = []
        while bytes.count <= limit {
            guard let chunk = try? FileDescriptor.standardInput.read(atMost: 65_536), !chunk.isEmpty else {
                return String(decoding: bytes, as: UTF8.self)
            }
            bytes += chunk
        }
        return nil
    }
}
