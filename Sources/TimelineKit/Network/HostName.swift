/// The DNS host names a handle may end with (`example.social`, `xn--bcher-kva.example`): two
/// labels or more of ASCII letters, digits and inner hyphens, each at most 63 bytes, 253 in all.
/// Handles are typed by people and sent in queries: a name that is anything else (a `/`, a `&`,
/// a line break, a space) is refused before it is sent.
enum HostName {
    /// Whether `text` is such a host name.
    static func isValid(_ text: Substring) -> Bool {
        let labels = text.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2, text.utf8.count <= 253 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.utf8.count <= 63 && label.first != "-" && label.last != "-"
                && label.utf8.allSatisfy { $0 == UInt8(ascii: "-") || isLetterOrDigit($0) }
        }
    }

    /// Whether `byte` is an ASCII letter or digit.
    static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A") ... UInt8(ascii: "Z")).contains(byte)
            || (UInt8(ascii: "0") ... UInt8(ascii: "9")).contains(byte)
    }
}
