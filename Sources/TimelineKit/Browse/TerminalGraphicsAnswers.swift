/// Reads a terminal's answers to ``query`` and tells which pictures it draws
/// (``TerminalGraphics``), keeping every byte that is not an answer (keys typed meanwhile) for
/// the key decoder.
///
/// The query asks three things in one write:
/// - `ESC _ G i=31,s=1,v=1,a=q,t=d,f=24 ; AAAA ESC \`: a kitty graphics query of a 1×1 picture;
///   a terminal with the protocol answers `ESC _ G i=31 ; OK ESC \` and draws nothing;
/// - `ESC [ > q` (XTVERSION): the terminal's name and version, `ESC P > | name ESC \`, the only
///   way to tell iTerm2 (and WezTerm) from others that draw no inline images;
/// - `ESC [ c` (primary device attributes, DA1): `ESC [ ? 62 ; 4 ; … c`, parameter 4 meaning
///   sixel. Every terminal answers DA1, and answers in order, so it is the last answer: once
///   it came, nothing more will.
///
/// A terminal that knows none of the first two (tmux without passthrough, the Linux console)
/// answers DA1 only. The reader is bounded: ``byteLimit`` bytes in all, and the program stops
/// reading after a time of its own (``waitMilliseconds``), whatever arrives.
///
/// ```swift
/// var answers = TerminalGraphicsAnswers()
/// answers.feed(Array("\u{1b}_Gi=31;OK\u{1b}\\\u{1b}[?62;4c".utf8))
/// // answers.isComplete, answers.graphics == .kitty
/// ```
package struct TerminalGraphicsAnswers: Sendable {
    /// What is written to the terminal, in one write.
    package static let query = "\u{1b}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1b}\\" + "\u{1b}[>q" + "\u{1b}[c"
    /// The most bytes read before the answers are taken as they are: real answers are under
    /// 200 bytes; a terminal (or something pretending) that sends more is not waited for.
    package static let byteLimit = 4096
    /// The longest the program waits for DA1. Every terminal answers DA1, so the wait normally
    /// ends at its answer; the bound is for one that never does, which costs it once (at the
    /// first `p`). It is long enough for a link across the world or a loaded machine (500 ms
    /// was not: a busy test machine took longer and read a kitty terminal as drawing nothing).
    package static let waitMilliseconds = 2_000

    /// Whether the DA1 answer arrived (or ``byteLimit`` was passed): nothing more to read.
    package private(set) var isComplete = false
    /// Bytes that were not part of an answer, in the order they came: keys typed meanwhile.
    package private(set) var keys: [UInt8] = []

    private var kittyAnswered = false
    private var inlineImagesNamed = false
    private var sixel = false
    /// Bytes of an escape sequence not yet complete (an answer split across reads).
    private var pending: [UInt8] = []
    private var total = 0

    package init() {}

    /// Which pictures the terminal draws, from the answers so far: kitty, else iTerm2's inline
    /// images, else sixel, else none.
    package var graphics: TerminalGraphics {
        if kittyAnswered { return .kitty }
        if inlineImagesNamed { return .iTerm2 }
        if sixel { return .sixel }
        return .none
    }

    /// Reads `bytes`, the next that came from the terminal.
    package mutating func feed<Bytes: Collection<UInt8>>(_ bytes: Bytes) {
        for byte in bytes {
            if isComplete {
                // After DA1, everything is typed keys.
                keys.append(byte)
                continue
            }
            total += 1
            if total > Self.byteLimit {
                isComplete = true
                keys += pending
                pending = []
                keys.append(byte)
                continue
            }
            if pending.isEmpty {
                if byte == 0x1B { pending = [byte] } else { keys.append(byte) }
                continue
            }
            pending.append(byte)
            step()
        }
    }

    /// Looks at `pending` (starting with ESC) after a byte was added: a whole answer is read,
    /// something that cannot be an answer goes to the keys.
    private mutating func step() {
        let introducer = pending[1]
        switch introducer {
        case UInt8(ascii: "_"), UInt8(ascii: "P"):
            // APC (kitty) or DCS (XTVERSION): up to the string terminator ESC \.
            let count = pending.count
            guard count >= 4, pending[count - 2] == 0x1B, pending[count - 1] == UInt8(ascii: "\\") else { return }
            let body = Array(pending[2 ..< count - 2])
            pending = []
            if introducer == UInt8(ascii: "_") {
                readKitty(body)
            } else {
                readVersion(body)
            }
        case UInt8(ascii: "["):
            // CSI: parameters and intermediates (0x20–0x3F), then a final byte (0x40–0x7E).
            let last = pending[pending.count - 1]
            if pending.count > 2, !(0x20 ... 0x3F).contains(last) {
                let sequence = pending
                pending = []
                if last == UInt8(ascii: "c"), sequence.count > 3, sequence[2] == UInt8(ascii: "?") {
                    readDeviceAttributes(Array(sequence[3 ..< sequence.count - 1]))
                } else {
                    // An arrow key, a function key: not an answer.
                    keys += sequence
                }
            }
        default:
            // ESC and a key (Alt-x), or ESC alone then a key: not an answer.
            keys += pending
            pending = []
        }
    }

    /// `Gi=31;OK`: the kitty graphics query answered yes (an error is `Gi=31;ENOTSUPPORTED:…`).
    private mutating func readKitty(_ body: [UInt8]) {
        guard body.first == UInt8(ascii: "G") else { return }
        let text = String(decoding: body.dropFirst(), as: UTF8.self)
        let parts = text.split(separator: ";", maxSplits: 1)
        guard parts.count == 2, parts[0].split(separator: ",").contains("i=31") else { return }
        if parts[1] == "OK" { kittyAnswered = true }
    }

    /// `>|iTerm2 3.5.0` or `>|WezTerm 20240203`: the terminals that draw iTerm2's inline images.
    private mutating func readVersion(_ body: [UInt8]) {
        guard body.starts(with: Array(">|".utf8)) else { return }
        let name = String(decoding: body.dropFirst(2), as: UTF8.self)
        if name.hasPrefix("iTerm2") || name.hasPrefix("WezTerm") { inlineImagesNamed = true }
    }

    /// DA1's parameters (`62;4;22`): 4 is sixel. The last answer.
    private mutating func readDeviceAttributes(_ parameters: [UInt8]) {
        sixel = parameters.split(separator: UInt8(ascii: ";")).contains { Array($0) == [UInt8(ascii: "4")] }
        isComplete = true
    }

    /// Ends the reading (the time is up): a sequence begun and not finished goes to the keys.
    package mutating func finish() {
        keys += pending
        pending = []
        isComplete = true
    }
}
