import Foundation
import Testing

/// The README is the front door (issue 23, item 17): short, leading with the first day, and
/// linking every page under docs/, whose links all lead somewhere.
@Suite struct DocumentationLinksTests {
    /// The relative links of a Markdown text, `[text](target)`, outside code blocks and spans:
    /// web addresses (`https:`, `mailto:`) are left out.
    static func relativeLinks(in text: String) -> [String] {
        var links: [String] = []
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            if inCode { continue }
            // Code spans hold examples such as `[text](target)`, not links.
            let prose = line.split(separator: "`", omittingEmptySubsequences: false).enumerated()
                .filter { $0.offset % 2 == 0 }.map(\.element).joined(separator: " ")
            var rest = Substring(prose)
            while let open = rest.range(of: "](") {
                rest = rest[open.upperBound...]
                guard let close = rest.firstIndex(of: ")") else { break }
                let target = String(rest[..<close])
                if !target.contains(":") { links.append(target) }
                rest = rest[close...]
            }
        }
        return links
    }

    /// The anchors GitHub gives a page's headings: lower case, punctuation dropped, spaces as `-`.
    static func anchors(in text: String) -> Set<String> {
        var anchors: Set<String> = []
        var inCode = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("```") { inCode.toggle(); continue }
            guard !inCode, line.hasPrefix("#") else { continue }
            let title = line.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)
            anchors.insert(String(title.lowercased().compactMap { character -> Character? in
                if character == " " { return "-" }
                return character.isLetter || character.isNumber || character == "-" || character == "_" ? character : nil
            }))
        }
        return anchors
    }

    /// A link's path from the page's directory, as a path in the repository: `../README.md` from
    /// `docs` is `README.md`.
    static func resolve(_ link: String, from directory: String) -> String {
        var components = directory.split(separator: "/").map(String.init)
        for component in link.split(separator: "/").map(String.init) {
            if component == ".." { _ = components.popLast() } else if component != "." { components.append(component) }
        }
        return components.joined(separator: "/")
    }

    @Test func linksAreResolvedFromTheirPagesDirectory() {
        #expect(Self.resolve("../README.md", from: "docs") == "README.md")
        #expect(Self.resolve("docs/network.md", from: "") == "docs/network.md")
        #expect(Self.resolve("./network.md", from: "docs") == "docs/network.md")
    }

    @Test func anchorsAreMadeAsGitHubMakesThem() {
        #expect(Self.anchors(in: "# A\n## Launch order: the code `show` runs, laid out together\n```sh\n# not a heading\n```\n")
            == ["a", "launch-order-the-code-show-runs-laid-out-together"])
        #expect(Self.relativeLinks(in: "See [x](docs/a.md#b), [web](https://example.com) and `[c](d.md)`.\n")
            == ["docs/a.md#b"])
    }

    @Test func theReadmeIsAtMost250Lines() throws {
        let readme = try String(contentsOfFile: Scenario.repositoryPath("README.md"), encoding: .utf8)
        let lines = readme.split(separator: "\n", omittingEmptySubsequences: false).count - 1
        #expect(lines <= 250, "README.md has \(lines) lines: move the detail to a page under docs/")
    }

    @Test func theReadmeLinksEveryDocsPage() throws {
        let readme = try String(contentsOfFile: Scenario.repositoryPath("README.md"), encoding: .utf8)
        let linked = Set(Self.relativeLinks(in: readme).map { $0.split(separator: "#").first.map(String.init) ?? $0 })
        let pages = try DocumentationPages.docsFileNames()
        #expect(pages.count >= 5, "\(pages)")
        for page in pages {
            #expect(linked.contains("docs/" + page), "README.md does not link docs/\(page)")
        }
    }

    @Test func everyLinkOfTheReadmeAndTheDocsLeadsToAPageAndHeadingThatExist() throws {
        let pages = try DocumentationPages.readmeAndDocs()
        let anchorsByPath = Dictionary(uniqueKeysWithValues: pages.map { ($0.path, Self.anchors(in: $0.text)) })
        var checked = 0
        for page in pages {
            let directory = (page.path as NSString).deletingLastPathComponent
            for link in Self.relativeLinks(in: page.text) {
                let parts = link.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
                let target = parts[0].isEmpty ? page.path : Self.resolve(parts[0], from: directory)
                #expect(FileManager.default.fileExists(atPath: Scenario.repositoryPath(target)),
                        "\(page.path) links \(link): no \(target)")
                if parts.count == 2, let anchors = anchorsByPath[target] {
                    #expect(anchors.contains(parts[1]), "\(page.path) links \(link): \(target) has no such heading")
                }
                checked += 1
            }
        }
        #expect(checked >= 10)
    }

    @Test func theFirstDayIsOneShellBlockInTheOrderAPersonTypesIt() throws {
        let readme = try String(contentsOfFile: Scenario.repositoryPath("README.md"), encoding: .utf8)
        let after = try #require(readme.components(separatedBy: "<!-- first-day -->\n```sh\n").dropFirst().first,
                                 "README.md has no <!-- first-day --> line right before a ```sh block")
        let block = try #require(after.components(separatedBy: "\n```").first)
        let commands = block.split(separator: "\n").map { line in
            line.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0].trimmingCharacters(in: .whitespaces)
        }.filter { !$0.isEmpty }
        #expect(commands.count <= 12, "\(commands)")
        let expected = ["make install", #"echo 'source "${XDG_CACHE_HOME:-$HOME/.cache}/timeline/init.bash" 2>/dev/null || eval "$(timeline init bash)"' >> ~/.bashrc"#,
                        "timeline login mastodon example.social", "timeline sync", "timeline"]
        var index = commands.startIndex
        for step in expected {
            let found = commands[index...].firstIndex { step == "timeline" ? $0 == step : $0.hasPrefix(step) }
            #expect(found != nil, "the first day has no \(step) after \(commands[..<index])")
            index = (found ?? index) + 1
            if index > commands.endIndex { break }
        }
    }
}
