/// A short name for a stored message that a person can type, the way git abbreviates commit
/// hashes: `bkd`, `qhtz`. It is the message's sequence number in its store (the `seq` that
/// migration 2 made stable, kept through updates, `VACUUM` and edits) written in twenty
/// consonants, at least three of them: unique among the stored messages, the same at every
/// paint, and never another message's while this one is stored.
///
/// Letters only, and no vowels, so a reference never reads as a word, never looks like a
/// server's numeric ID, and needs no quoting in a shell (unlike `#12`, which starts a comment).
/// Three letters name 8,000 messages, four 160,000, five 3.2 million.
///
/// A reference belongs to one store: the same message has another in another database. Two
/// messages are equal whatever their references (``Message`` compares what a message is, not
/// where it is kept), so `==` and `hash(into:)` ignore it; that is why a message without one
/// holds ``none`` rather than `nil` (an optional would tell `nil` from a reference).
public struct ShortReference: Sendable, Codable, Hashable, CustomStringConvertible {
    /// The letters, e.g. `bkd`; empty for ``none``.
    public let text: String

    /// No reference: a message not read from a store (decoded from a server, built by hand).
    public static let none = ShortReference(text: "")

    /// Whether this is ``none``.
    public var isNone: Bool { text.isEmpty }

    /// The alphabet: twenty lowercase consonants.
    static let alphabet: [UInt8] = Array("bcdfghjklmnpqrstvwxz".utf8)
    /// The fewest letters a reference has.
    static let minimumLength = 3

    /// The reference of the message stored with sequence number `sequence` (1 or more).
    public init(sequence: Int64) {
        var value = UInt64(max(sequence, 0))
        var letters: [UInt8] = []
        repeat {
            letters.append(Self.alphabet[Int(value % 20)])
            value /= 20
        } while value > 0 || letters.count < Self.minimumLength
        text = String(decoding: letters.reversed(), as: UTF8.self)
    }

    init(text: String) {
        self.text = text
    }

    /// This reference as another timeline's database paints it, `label:text` (`rust:bkd` in
    /// `timeline tag rust`), so that it cannot be taken for the main timeline's `bkd`.
    public func qualified(by label: String) -> ShortReference {
        isNone ? self : ShortReference(text: label + ":" + text)
    }

    /// The sequence number `text` names, or `nil` when it is not a reference: other letters,
    /// fewer than three or more than twelve (past any store's size).
    public static func sequence(of text: String) -> Int64? {
        let bytes = Array(text.utf8)
        guard (minimumLength ... 12).contains(bytes.count) else { return nil }
        var value: Int64 = 0
        for byte in bytes {
            guard let digit = alphabet.firstIndex(of: byte) else { return nil }
            value = value * 20 + Int64(digit)
        }
        return value
    }

    public var description: String { text }

    public static func == (lhs: ShortReference, rhs: ShortReference) -> Bool { true }
    public func hash(into hasher: inout Hasher) {}

    public init(from decoder: any Decoder) throws {
        text = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
