#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TimelineKit

/// Asks the terminal which pictures it draws (``TerminalGraphicsAnswers``): the query in one
/// write, then its answers read until DA1 (the last) arrives, for at most
/// ``TerminalGraphicsAnswers/waitMilliseconds`` and ``TerminalGraphicsAnswers/byteLimit`` bytes.
/// Run at the first `p` only, never before browse's first paint and never by `show`, so a
/// terminal that answers nothing costs that wait once, to a person who asked for pictures.
enum TerminalGraphicsProbe {
    /// What the terminal draws, and the bytes read that were not answers (keys typed
    /// meanwhile), for the key decoder.
    static func run() -> (graphics: TerminalGraphics, keys: [UInt8]) {
        Terminal.emit(TerminalGraphicsAnswers.query)
        var answers = TerminalGraphicsAnswers()
        let deadline = FollowLoop.milliseconds() + UInt64(TerminalGraphicsAnswers.waitMilliseconds)
        var buffer = [UInt8](repeating: 0, count: 1024)
        while !answers.isComplete {
            let now = FollowLoop.milliseconds()
            guard now < deadline else { break }
            var descriptor = pollfd(fd: BrowseTerminal.input, events: Int16(POLLIN), revents: 0)
            let ready = poll(&descriptor, 1, Int32(clamping: deadline - now))
            if ready < 0 {
                if errno == EINTR { continue }
                break
            }
            if ready == 0 { continue }
            // In bounds: reads at most buffer.count bytes into buffer's own storage.
            let count = buffer.withUnsafeMutableBytes { read(BrowseTerminal.input, $0.baseAddress, $0.count) }
            if count <= 0 { break }
            answers.feed(buffer[..<count])
        }
        answers.finish()
        return (answers.graphics, answers.keys)
    }
}
