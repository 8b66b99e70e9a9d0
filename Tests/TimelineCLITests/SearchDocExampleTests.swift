import Foundation
import Testing

/// Every `timeline search` example in the README and the docs/ pages finds something in the demo
/// data (`make demo` imports `Fixtures/sample-timeline.jsonl`), so that a new user who tries them
/// sees results.
@Suite struct SearchDocExampleTests {
    /// The `timeline search …` command lines of the shell blocks of README.md and docs/*.md, as a
    /// shell splits them.
    static func examples() throws -> [[String]] {
        var examples: [[String]] = []
        for page in try DocumentationPages.readmeAndDocs() {
            var inShell = false
            for line in page.text.split(separator: "\n", omittingEmptySubsequences: false) {
                if line.hasPrefix("```") {
                    inShell = line == "```sh"
                    continue
                }
                if inShell, line.hasPrefix("timeline search ") { examples.append(words(of: String(line))) }
            }
        }
        return examples
    }

    /// The words of a command line as `sh` reads them: '…' and "…" quote, an unquoted `#` after a
    /// space starts a comment. (The examples need nothing more.)
    static func words(of line: String) -> [String] {
        var words: [String] = []
        var word: String?
        var quote: Character?
        for character in line {
            if let open = quote {
                if character == open { quote = nil } else { word?.append(character) }
            } else if character == "'" || character == "\"" {
                quote = character
                word = word ?? ""
            } else if character == " " {
                if let done = word { words.append(done) }
                word = nil
            } else if character == "#" && word == nil {
                break
            } else {
                word = (word ?? "") + String(character)
            }
        }
        if let word { words.append(word) }
        return words
    }

    @Test func theShellWordsOfAnExampleAreReadAsAShellReadsThem() {
        #expect(Self.words(of: #"timeline search '"polar night"' -n 2   # a phrase"#) == ["timeline", "search", #""polar night""#, "-n", "2"])
        #expect(Self.words(of: "timeline search '#followfriday' @dana") == ["timeline", "search", "#followfriday", "@dana"])
    }

    @Test func everyDocumentedSearchExampleFindsSomethingInTheDemoData() throws {
        let examples = try Self.examples()
        #expect(examples.count >= 9, "\(examples)")
        let scenario = Scenario()
        try scenario.importSample()
        for example in examples {
            let result = try scenario.timeline.run(Array(example.dropFirst()))
            #expect(result.status == 0, "\(example): \(result.errors)")
            #expect(!result.output.isEmpty, "\(example)")
        }
    }
}
