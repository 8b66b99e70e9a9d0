#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The keys of a JSON object's known fields, made once from the field enum's cases, and
/// recognised straight from a key's bytes: no `String` is made for a key.
///
/// A field is declared once, as a case: its key is the case's name in snake_case (`createdAt`
/// is `created_at`), the rule every key of timeline's JSON follows, and its raw value (0, 1, 2, …
/// in declaration order) is its slot in a parser's arrays and its bit in a presence mask. The
/// name is the one Swift keeps for `String(describing:)`, which swift-argument-parser relies on
/// for the command line's own names too; `FieldKeyTableTests` checks every key.
///
/// A class, not a struct: the enums keep one in a `static let`, and a struct there would be
/// copied, its five arrays retained and released, at each of the several keys of every line.
final class FieldKeyTable<Field: CaseIterable & RawRepresentable & Sendable>: Sendable where Field.RawValue == Int {
    /// Each field's key, by raw value.
    let keys: [String]
    /// Every key's UTF-8 bytes, one after the other, shortest keys first.
    private let keyBytes: [UInt8]
    /// Where each key starts in `keyBytes`, in the order of `keyBytes`.
    private let starts: [Int]
    /// The field of each key, in the order of `keyBytes`.
    private let fields: [Field]
    /// The keys of `n` bytes are those from `firstOfLength[n]` up to `firstOfLength[n + 1]`.
    private let firstOfLength: [Int]

    init() {
        let cases = Array(Field.allCases)
        var keys: [String] = []
        for (index, field) in cases.enumerated() {
            precondition(field.rawValue == index, "\(Field.self)'s raw values are its cases' places: leave them implicit")
            keys.append(Self.snakeCase(String(describing: field)))
        }
        let longest = keys.map(\.utf8.count).max() ?? 0
        var keyBytes: [UInt8] = [], starts: [Int] = [], fields: [Field] = []
        var firstOfLength = [Int](repeating: 0, count: longest + 2)
        for length in 0 ... longest {
            firstOfLength[length] = starts.count
            for (index, key) in keys.enumerated() where key.utf8.count == length {
                starts.append(keyBytes.count)
                keyBytes += key.utf8
                fields.append(cases[index])
            }
        }
        firstOfLength[longest + 1] = starts.count
        self.keys = keys
        self.keyBytes = keyBytes
        self.starts = starts
        self.fields = fields
        self.firstOfLength = firstOfLength
    }

    /// The field `key` names, or `nil` for a key the table does not know (ignored, so that newer
    /// files still import).
    @inline(__always)
    func field(forKey key: UnsafeBufferPointer<UInt8>) -> Field? {
        let length = key.count
        guard length + 1 < firstOfLength.count, let base = key.baseAddress else { return nil }
        // Only the keys of the same length are compared: at most four for any table here.
        let first = firstOfLength[length], end = firstOfLength[length + 1]
        guard first < end else { return nil }
        return keyBytes.withUnsafeBufferPointer { bytes -> Field? in
            for entry in first ..< end {
                // In bounds: the entry's key holds `length` bytes from its start; there is an
                // entry, so `keyBytes` is not empty and has a base address.
                if memcmp(bytes.baseAddress! + starts[entry], base, length) == 0 { return fields[entry] }
            }
            return nil
        }
    }

    /// `createdAt` → `created_at`.
    private static func snakeCase(_ name: String) -> String {
        var key = ""
        for character in name {
            if character.isUppercase {
                key += "_" + character.lowercased()
            } else {
                key.append(character)
            }
        }
        return key
    }
}
