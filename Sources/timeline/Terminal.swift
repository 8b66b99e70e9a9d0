#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TimelineKit

/// The process's standard streams as the terminal sees them: whether they are a terminal, the
/// window's size, and unbuffered writes (one `write(2)` per call, so a paint is one system call).
enum Terminal {
    static var standardOutputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }
    static var standardErrorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// The window size of the terminal on standard output, when there is one and it says.
    static func windowSize() -> (columns: Int, rows: Int)? {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return (Int(size.ws_col), Int(size.ws_row))
    }

    /// A character cell's size in pixels, from the window's size in pixels when the terminal
    /// says it (`ws_xpixel`, `ws_ypixel`), else 10 × 20, a common font's.
    static func cellSize() -> (width: Int, height: Int) {
        var size = winsize()
        guard ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0, size.ws_row > 0,
              size.ws_xpixel > 0, size.ws_ypixel > 0 else { return (10, 20) }
        return (max(1, Int(size.ws_xpixel) / Int(size.ws_col)), max(1, Int(size.ws_ypixel) / Int(size.ws_row)))
    }

    /// Writes `bytes` as they are, in one write: only the tool's own sequences (a picture as
    /// base64 inside a protocol, chafa's capped output), never text from a server.
    static func emit(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { try? FileDescriptor(rawValue: STDOUT_FILENO).writeAll($0) }
    }

    static func emit(_ text: String, to fd: Int32 = STDOUT_FILENO) {
        var text = text
        // A closed pipe or a full disk leaves nothing useful to do with output: it is dropped.
        _ = text.withUTF8 { bytes in try? FileDescriptor(rawValue: fd).writeAll(UnsafeRawBufferPointer(bytes)) }
    }

    /// Writes a message to standard error, neutralised like all untrusted text
    /// (`TerminalText.body`): messages quote IDs, values, paths and arguments, any of which a
    /// hostile file, server or script may have chosen.
    static func emitError(_ text: String) {
        emitControl(TerminalText.body(text))
    }

    /// Writes `text` to standard error as it is, control sequences included: only for the
    /// tool's own sequences (a progress line redrawn with `\r`), never for text holding input.
    static func emitControl(_ text: String) {
        errorWrites &+= 1
        emit(text, to: STDERR_FILENO)
    }

    /// How many times `emitError` wrote: `show --follow` repaints its block in place only while
    /// nothing else moved the cursor on the same terminal. (The CLI writes from its main thread.)
    nonisolated(unsafe) static var errorWrites = 0

    /// The symbols this terminal shows: ASCII under a non-UTF-8 locale (`LANG=C`), else Unicode.
    static var symbols: RenderSymbols { RenderSymbols.forLocale(environment) }

    static func environment(_ name: String) -> String? {
        getenv(name).map { String(cString: $0) }
    }
}
