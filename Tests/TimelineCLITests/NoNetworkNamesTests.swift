import Foundation
import Testing

/// Issue 26: the command line holds no per-network branch. Apart from the words a person types
/// (`login mastodon|bluesky`, `import --format mastodon`) and help text, which are string
/// literals and comments, no code in `Sources/timeline` names a network's type (`MastodonSync`,
/// `BlueskyClient`, …) or case (`.mastodon`, `.bluesky`): each network's behaviour is its
/// `AccountSession` conformance and its `Account.Network` value in TimelineKit.
@Suite struct NoNetworkNamesTests {
    /// Where naming a network stays right, and why: nowhere since issue 35 (the import formats'
    /// names are `ImportFormat.displayName`, in TimelineKit).
    static let allowed: [(file: String, name: String, why: String)] = []

    @Test func noCodeOfTheCommandLineNamesANetwork() throws {
        let root = Scenario.repositoryPath("Sources/timeline")
        let files = try #require(FileManager.default.enumerator(atPath: root)).compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") }
        #expect(files.count > 20, "Sources/timeline was not found at \(root)")
        var found: [String] = []
        for file in files.sorted() {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for (line, name) in Self.networkNames(inCodeOf: text)
            where !Self.allowed.contains(where: { $0.file == file && $0.name == name }) {
                found.append("Sources/timeline/\(file):\(line): \(name)")
            }
        }
        #expect(found.isEmpty, "the command line names a network; move the behaviour into TimelineKit's AccountSession or Account.Network:\n\(found.joined(separator: "\n"))")
    }

    /// The scanner sees code, interpolations included, and skips comments and string literals:
    /// otherwise the test above could pass by not looking.
    @Test func theScannerFindsNamesInCodeOnly() {
        let source = #"""
            // MastodonSync in a comment
            /// BlueskyClient in documentation
            let help = "login mastodon: Mastodon servers; \"Bluesky\" too"
            let text = """
                MastodonAuthorization in a multi-line string
                """
            if account.network == .bluesky { try MastodonSync(store: store) }
            let said = "\(account.network == .mastodon ? "Bluesky" : "x")"
            let raw = #"BlueskySession "quoted" here"#
            x = BlueskyPost(text: t) /* MastodonPost */ ; y = 1
            """#
        let names = Self.networkNames(inCodeOf: source)
        #expect(names.map { "\($0.line) \($0.name)" } == ["7 .bluesky", "7 MastodonSync", "8 .mastodon", "10 BlueskyPost"])
    }

    /// The network names in the code of `source` (not in its comments or string literals, but in
    /// the interpolations of those): `Mastodon…`/`Bluesky…` identifiers and `.mastodon`/`.bluesky`
    /// members, each with its line number.
    static func networkNames(inCodeOf source: String) -> [(line: Int, name: String)] {
        let code = codeOnly(Array(source.unicodeScalars))
        var result: [(Int, String)] = []
        for (index, line) in code.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let text = String(line)
            let pattern = #"\.(mastodon|bluesky)\b|\b(Mastodon|Bluesky)[A-Za-z0-9_]*"#
            let expression = try! NSRegularExpression(pattern: pattern)
            for match in expression.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                result.append((index + 1, String(text[Range(match.range, in: text)!])))
            }
        }
        return result
    }

    /// `source` with every comment and string literal blanked (line breaks kept, so lines keep
    /// their numbers), and the code inside string interpolations kept.
    private static func codeOnly(_ source: [Unicode.Scalar]) -> String {
        var output = String.UnicodeScalarView()
        var index = 0
        // Each open string: its closing delimiter, and the parenthesis depth of the code around it.
        var strings: [(close: [Unicode.Scalar], pounds: Int, depth: Int)] = []
        var depth = 0
        func starts(_ text: String, at position: Int) -> Bool {
            let scalars = Array(text.unicodeScalars)
            return position + scalars.count <= source.count && Array(source[position ..< position + scalars.count]) == scalars
        }
        func blank(_ scalar: Unicode.Scalar) { output.append(scalar == "\n" ? "\n" : " ") }
        while index < source.count {
            let scalar = source[index]
            if let open = strings.last {
                let escape = "\\" + String(repeating: "#", count: open.pounds)
                if starts(escape + "(", at: index) {
                    // An interpolation: code until its parenthesis closes.
                    for _ in 0 ..< escape.unicodeScalars.count + 1 { blank(source[index]); index += 1 }
                    depth += 1
                    strings.append((close: [], pounds: 0, depth: depth))  // a marker: code inside
                    continue
                }
                if open.close.isEmpty {
                    // Inside an interpolation: code, handled below.
                } else if starts(escape, at: index) {
                    // An escaped character (`\"` does not end the string).
                    for _ in 0 ..< escape.unicodeScalars.count + 1 where index < source.count { blank(source[index]); index += 1 }
                    continue
                } else if starts(String(String.UnicodeScalarView(open.close)), at: index) {
                    for _ in 0 ..< open.close.count { blank(source[index]); index += 1 }
                    strings.removeLast()
                    continue
                } else {
                    blank(scalar)
                    index += 1
                    continue
                }
            }
            // Code.
            if starts("//", at: index) {
                while index < source.count, source[index] != "\n" { blank(source[index]); index += 1 }
                continue
            }
            if starts("/*", at: index) {
                while index < source.count, !starts("*/", at: index) { blank(source[index]); index += 1 }
                for _ in 0 ..< 2 where index < source.count { blank(source[index]); index += 1 }
                continue
            }
            var pounds = 0
            while starts(String(repeating: "#", count: pounds + 1), at: index) { pounds += 1 }
            if starts(String(repeating: "#", count: pounds) + "\"", at: index) {
                let triple = starts(String(repeating: "#", count: pounds) + "\"\"\"", at: index)
                let quote = triple ? "\"\"\"" : "\""
                let opening = pounds + quote.unicodeScalars.count
                for _ in 0 ..< opening { blank(source[index]); index += 1 }
                strings.append((close: Array((quote + String(repeating: "#", count: pounds)).unicodeScalars), pounds: pounds, depth: depth))
                continue
            }
            if scalar == "(" { depth += 1 }
            if scalar == ")" {
                if let open = strings.last, open.close.isEmpty, open.depth == depth {
                    strings.removeLast()
                    depth -= 1
                    blank(scalar)
                    index += 1
                    continue
                }
                depth -= 1
            }
            output.append(scalar)
            index += 1
        }
        return String(output)
    }
}
