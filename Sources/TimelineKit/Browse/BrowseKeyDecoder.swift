/// Turns the bytes a terminal sends in raw mode into keys: characters (UTF-8), control keys and
/// the escape sequences of arrows and page keys, as xterm and its descendants (tmux, VTE,
/// kitty, the Linux console) send them in both cursor-key modes (`ESC [ A` and `ESC O A`).
///
/// An escape byte alone is ambiguous: it is the Escape key, or the first byte of a sequence whose
/// rest has not arrived yet. The decoder keeps it back (`isHoldingEscape`) and the reader calls
/// `flush()` when nothing more came within a short wait, as every full-screen program does.
///
/// ```swift
/// var decoder = BrowseKeyDecoder()
/// decoder.feed([0x1B, 0x5B, 0x42, 0x6A])   // ↓ then j
/// decoder.keys()                           // [.down, .character("j")]
/// ```
package struct BrowseKeyDecoder: Sendable {
    private var pending: [UInt8] = []
    private var decoded: [BrowseKey] = []

    package init() {}

    /// Whether bytes are kept back waiting for the rest of a sequence (an escape byte alone, or
    /// the start of a UTF-8 character).
    package var isHoldingEscape: Bool { !pending.isEmpty }

    /// Adds bytes read from the terminal.
    package mutating func feed(_ bytes: some Sequence<UInt8>) {
        pending.append(contentsOf: bytes)
        decode(final: false)
    }

    /// The keys decoded so far, oldest first; they are handed out once.
    package mutating func keys() -> [BrowseKey] {
        defer { decoded = [] }
        return decoded
    }

    /// Decodes what was kept back as it stands: an escape byte alone is the Escape key, a cut
    /// sequence or character is dropped as `unknown`.
    package mutating func flush() {
        decode(final: true)
    }

    private mutating func decode(final: Bool) {
        var index = 0
        while index < pending.count {
            guard let (key, length) = Self.key(at: index, in: pending, final: final) else { break }
            decoded.append(key)
            index += length
        }
        pending.removeFirst(index)
    }

    /// The key starting at `index` and how many bytes it takes, or `nil` when more bytes are
    /// needed to tell (never when `final`).
    private static func key(at index: Int, in bytes: [UInt8], final: Bool) -> (BrowseKey, Int)? {
        let byte = bytes[index]
        switch byte {
        case 0x1B:
            return escapeSequence(at: index, in: bytes, final: final)
        case 0x0D, 0x0A:
            return (.enter, 1)
        case 0x7F, 0x08:
            return (.backspace, 1)
        case 0x00..<0x20:
            // Ctrl-A is 0x01 … Ctrl-Z is 0x1A.
            return (.control(Character(Unicode.Scalar(byte + 0x60))), 1)
        case 0x20..<0x7F:
            return (.character(Character(Unicode.Scalar(byte))), 1)
        default:
            return utf8Character(at: index, in: bytes, final: final)
        }
    }

    private static func escapeSequence(at index: Int, in bytes: [UInt8], final: Bool) -> (BrowseKey, Int)? {
        guard index + 1 < bytes.count else { return final ? (.escape, 1) : nil }
        let introducer = bytes[index + 1]
        // Escape then another key typed quickly (or Alt-key): Escape, then that key.
        guard introducer == UInt8(ascii: "[") || introducer == UInt8(ascii: "O") else { return (.escape, 1) }
        // CSI: parameter and intermediate bytes (0x20–0x3F), then one final byte (0x40–0x7E).
        // SS3 (`ESC O`): one final byte.
        var end = index + 2
        if introducer == UInt8(ascii: "[") {
            while end < bytes.count, (0x20...0x3F).contains(bytes[end]) { end += 1 }
        }
        guard end < bytes.count else { return final ? (.unknown, bytes.count - index) : nil }
        let last = bytes[end]
        guard (0x40...0x7E).contains(last) else { return (.unknown, end - index + 1) }
        let parameters = String(decoding: bytes[(index + 2)..<end], as: UTF8.self)
        let length = end - index + 1
        switch (last, parameters) {
        case (UInt8(ascii: "A"), _): return (.up, length)
        case (UInt8(ascii: "B"), _): return (.down, length)
        case (UInt8(ascii: "C"), _): return (.right, length)
        case (UInt8(ascii: "D"), _): return (.left, length)
        case (UInt8(ascii: "H"), _): return (.home, length)
        case (UInt8(ascii: "F"), _): return (.end, length)
        case (UInt8(ascii: "~"), "1"), (UInt8(ascii: "~"), "7"): return (.home, length)
        case (UInt8(ascii: "~"), "4"), (UInt8(ascii: "~"), "8"): return (.end, length)
        case (UInt8(ascii: "~"), "5"): return (.pageUp, length)
        case (UInt8(ascii: "~"), "6"): return (.pageDown, length)
        default: return (.unknown, length)
        }
    }

    private static func utf8Character(at index: Int, in bytes: [UInt8], final: Bool) -> (BrowseKey, Int)? {
        let lead = bytes[index]
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1
        guard index + length <= bytes.count else { return final ? (.unknown, bytes.count - index) : nil }
        let text = String(decoding: bytes[index..<(index + length)], as: UTF8.self)
        // A stray continuation byte or an invalid sequence decodes to U+FFFD: not a key.
        guard length > 1, let character = text.first, text.unicodeScalars.first != "\u{FFFD}" else { return (.unknown, length) }
        return (.character(character), length)
    }
}
