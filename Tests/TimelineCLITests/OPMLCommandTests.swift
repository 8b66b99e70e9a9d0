import Foundation
import Testing

/// `import --format opml` and `export --format opml` (issue 35) as a person runs them: a real
/// feed reader's list (NetNewsWire's test resources, `Fixtures/feeds/`, MIT: see SOURCES.md there),
/// nested outlines, a broken file, and the list written back and read again.
@Suite(.serialized) struct OPMLCommandTests {
    static let realList = Scenario.repositoryPath("Fixtures/feeds/SubsNoTitleAttributes.opml")

    /// Folders two deep, a feed named twice, a loopback feed in plain http, and one that is not.
    static let nestedList = """
        <?xml version="1.0" encoding="UTF-8"?>
        <opml version="2.0">
          <head><title>Mine</title></head>
          <body>
            <outline text="News">
              <outline text="World" title="World">
                <outline type="rss" text="The Daily" xmlUrl="https://news.example/daily.xml" htmlUrl="https://news.example/"/>
                <outline type="rss" text="The Daily again" xmlUrl="https://news.example/daily.xml"/>
              </outline>
              <outline type="rss" title="Local &amp; Weather" text="ignored" xmlUrl="http://127.0.0.1:8080/local.rss"/>
            </outline>
            <outline type="rss" text="Old Blog" xmlUrl="http://old.example/rss"/>
            <outline type="rss" xmlUrl="https://untitled.example/feed.json"/>
          </body>
        </opml>

        """

    static func jsonLines(_ output: String) throws -> [[String: Any]] {
        try output.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
    }

    static func subscriptions(_ scenario: Scenario) throws -> [[String: Any]] {
        try jsonLines(try scenario.timeline.run(["subscriptions", "--json"]).output)
    }

    static func write(_ text: String, in scenario: Scenario, as name: String) throws -> String {
        let path = scenario.directory + "/" + name
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// The `xmlUrl`s of an OPML text, counted from the text itself.
    static func feedURLs(in text: String) -> [String] {
        text.components(separatedBy: "xmlUrl=\"").dropFirst().compactMap { $0.split(separator: "\"", maxSplits: 1).first.map(String.init) }
    }

    @Test func aRealListSubscribesToItsHTTPSFeedsUnfetchedAndNamesTheSkippedOnes() async throws {
        let scenario = Scenario()
        let urls = Self.feedURLs(in: try String(contentsOfFile: Self.realList, encoding: .utf8))
        let secure = Set(urls.filter { $0.hasPrefix("https://") })
        let plain = Set(urls.filter { $0.hasPrefix("http://") })
        let imported = try await scenario.timeline.runOffThePool(["import", "--format", "opml", Self.realList])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output == "\(secure.count) subscriptions added, 0 already there, \(plain.count) skipped; `timeline sync` fetches them.\n")
        #expect(imported.errors.contains(#"timeline: skipped "Daring Fireball" (http://daringfireball.net/feeds/main): plain http"#), "\(imported.errors)")
        #expect(imported.errors.split(separator: "\n").count == plain.count, "one line a skipped feed")

        let list = try Self.subscriptions(scenario)
        #expect(Set(list.compactMap { $0["url"] as? String }) == secure)
        // Stored without a fetch: never fetched, so the next sync fetches them.
        #expect(list.allSatisfy { $0["last_fetch"] == nil || $0["last_fetch"] is NSNull }, "\(list)")
        #expect(list.contains { $0["name"] as? String == "Swift-Blog---Apple-Developer" && $0["title"] as? String == "Swift Blog - Apple Developer" })
        // Nothing was fetched, so nothing is in the timeline.
        #expect(try scenario.timeline.run(["show", "--json"]).output.isEmpty)
        // But the shell hook's background sync will fetch them: it learns of feeds from this file.
        #expect(FileManager.default.fileExists(atPath: scenario.databasePath + ".has-feeds"))

        let again = try await scenario.timeline.runOffThePool(["import", "--format", "opml", Self.realList, "--json"])
        #expect(again.status == 0, "\(again.errors)")
        let counts = try #require(try Self.jsonLines(again.output).first)
        #expect(counts["added"] as? Int == 0)
        #expect(counts["already_subscribed"] as? Int == secure.count)
        #expect(counts["skipped"] as? Int == plain.count)
        #expect(try Self.subscriptions(scenario).count == secure.count)
    }

    @Test func nestedOutlinesAreSubscribedOnceEachWithTheirTitles() async throws {
        let scenario = Scenario()
        let file = try Self.write(Self.nestedList, in: scenario, as: "nested.opml")
        let imported = try await scenario.timeline.runOffThePool(["import", "--format", "opml", file])
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(imported.output == "3 subscriptions added, 0 already there, 1 skipped; `timeline sync` fetches them.\n")
        #expect(imported.errors == #"timeline: skipped "Old Blog" (http://old.example/rss): plain http is fetched only from this machine; subscribe to its https:// address if the site has one."# + "\n")
        let list = try Self.subscriptions(scenario)
        let byURL = Dictionary(uniqueKeysWithValues: list.map { ($0["url"] as? String ?? "", $0) })
        #expect(Set(byURL.keys) == ["https://news.example/daily.xml", "http://127.0.0.1:8080/local.rss", "https://untitled.example/feed.json"])
        #expect(byURL["https://news.example/daily.xml"]?["name"] as? String == "The-Daily")
        #expect(byURL["https://news.example/daily.xml"]?["home_url"] as? String == "https://news.example/")
        #expect(byURL["http://127.0.0.1:8080/local.rss"]?["name"] as? String == "Local-&-Weather")
        #expect(byURL["https://untitled.example/feed.json"]?["name"] as? String == "untitled.example")
    }

    @Test func aBrokenListExits65WithItsLineAndStoresNothing() async throws {
        let scenario = Scenario()
        let broken = Self.nestedList.replacingOccurrences(of: "<outline type=\"rss\" text=\"Old Blog\" xmlUrl=\"http://old.example/rss\"/>",
                                                          with: "<outline type=\"rss\" text=\"Old Blog\" xmlUrl=\"http://old.example/rss\">")
        let file = try Self.write(broken, in: scenario, as: "broken.opml")
        let refused = try await scenario.timeline.runOffThePool(["import", "--format", "opml", file])
        #expect(refused.status == 65, "\(refused.output) \(refused.errors)")
        #expect(refused.errors.contains("\(file), line 14"), "\(refused.errors)")
        #expect(refused.errors.contains("mismatched tag"), "\(refused.errors)")
        #expect(refused.errors.contains("Nothing was imported."), "\(refused.errors)")
        #expect(refused.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath), "no database was created")

        let notOPML = try Self.write("<rss version=\"2.0\"><channel/></rss>", in: scenario, as: "feed.xml")
        let wrong = try await scenario.timeline.runOffThePool(["import", "--format", "opml", notOPML])
        #expect(wrong.status == 65, "\(wrong.errors)")
        #expect(wrong.errors.contains("not an OPML subscription list"), "\(wrong.errors)")
    }

    @Test func aListOfOnlyPlainHTTPFeedsExits65AndStoresNothing() async throws {
        let scenario = Scenario()
        let file = try Self.write(#"<opml version="2.0"><body><outline text="Old" xmlUrl="http://old.example/rss"/></body></opml>"#,
                                  in: scenario, as: "plain.opml")
        let refused = try await scenario.timeline.runOffThePool(["import", "--format", "opml", file])
        #expect(refused.status == 65, "\(refused.output) \(refused.errors)")
        #expect(refused.errors.contains("skipped \"Old\""), "\(refused.errors)")
        #expect(refused.errors.contains("nothing was imported"), "\(refused.errors)")
        #expect(try Self.subscriptions(scenario).isEmpty)
    }

    @Test func theExportedListImportsBackToTheSameFeeds() async throws {
        let scenario = Scenario()
        let file = try Self.write(Self.nestedList, in: scenario, as: "nested.opml")
        #expect(try await scenario.timeline.runOffThePool(["import", "--format", "opml", file]).status == 0)
        let exportedPath = scenario.directory + "/exported.opml"
        let exported = try await scenario.timeline.runOffThePool(["export", "--format", "opml", exportedPath])
        #expect(exported.status == 0, "\(exported.errors)")
        #expect(exported.errors == "Exported 3 subscriptions to \(exportedPath).\n")
        let text = try String(contentsOfFile: exportedPath, encoding: .utf8)
        #expect(text.contains(#"<outline type="rss" text="The Daily" title="The Daily" xmlUrl="https://news.example/daily.xml" htmlUrl="https://news.example/"/>"#), "\(text)")
        let toStandardOutput = try await scenario.timeline.runOffThePool(["export", "--format", "opml"])
        #expect(toStandardOutput.output == text)

        let other = Scenario()
        let reimported = try await other.timeline.runOffThePool(["import", "--format", "opml", exportedPath])
        #expect(reimported.status == 0, "\(reimported.errors)")
        #expect(reimported.output == "3 subscriptions added, 0 already there; `timeline sync` fetches them.\n")
        let urls = { (scenario: Scenario) throws -> Set<String> in Set(try Self.subscriptions(scenario).compactMap { $0["url"] as? String }) }
        #expect(try urls(other) == urls(scenario))
        #expect(Set(Self.feedURLs(in: text)) == (try urls(scenario)))
    }

    @Test func opmlCannotBeReadAsAnAccountsFile() async throws {
        let scenario = Scenario()
        let file = try Self.write(Self.nestedList, in: scenario, as: "nested.opml")
        let refused = try await scenario.timeline.runOffThePool(["import", "--format", "opml", "--account", "alice", file])
        #expect(refused.status == 64, "\(refused.errors)")
        #expect(refused.errors.contains("--format opml"), "\(refused.errors)")
    }
}
