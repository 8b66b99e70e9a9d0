import Foundation

/// The README and the pages under docs/, read from the checkout: what the documentation tests
/// hold to the code.
enum DocumentationPages {
    /// One page: its path in the repository (`README.md`, `docs/user-guide.md`) and its text.
    struct Page {
        let path: String
        let text: String
    }

    /// The file names of the pages under docs/ (`user-guide.md`, …), sorted.
    static func docsFileNames() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: Scenario.repositoryPath("docs"))
            .filter { $0.hasSuffix(".md") }.sorted()
    }

    /// README.md, then every docs/*.md.
    static func readmeAndDocs() throws -> [Page] {
        try (["README.md"] + docsFileNames().map { "docs/" + $0 }).map { path in
            Page(path: path, text: try String(contentsOfFile: Scenario.repositoryPath(path), encoding: .utf8))
        }
    }
}
