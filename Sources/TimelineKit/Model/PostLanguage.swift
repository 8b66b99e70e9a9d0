/// The language a post is written in, as both networks take it: a BCP 47 primary language
/// subtag (ISO 639: `en`, `pt`, `fil`), with at most a region (`pt-BR`), which Mastodon's
/// `language` and Bluesky's `langs` accept alike.
public enum PostLanguage {
    /// `code` written as the networks take it (`EN` → `en`, `pt-br` → `pt-BR`), or `nil` when
    /// it is not a language tag of that form (`english`, `e`, `en_US`, `en-`).
    public static func normalized(_ code: String) -> String? {
        let parts = code.split(separator: "-", omittingEmptySubsequences: false)
        guard (1 ... 2).contains(parts.count) else { return nil }
        let primary = parts[0]
        guard (2 ... 3).contains(primary.utf8.count), primary.utf8.allSatisfy(isLetter) else { return nil }
        var result = primary.lowercased()
        if parts.count == 2 {
            let region = parts[1]
            let letters = region.utf8.count == 2 && region.utf8.allSatisfy(isLetter)
            let digits = region.utf8.count == 3 && region.utf8.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
            guard letters || digits else { return nil }
            result += "-" + region.uppercased()
        }
        return result
    }

    /// How a language is written, for a refusal: `a language code: en, pt or pt-BR (ISO 639)`.
    public static let usage = "a language code: en, pt or pt-BR (a BCP 47 primary language subtag of ISO 639, with at most a region)"

    private static func isLetter(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
    }
}
