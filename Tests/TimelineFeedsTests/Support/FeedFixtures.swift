import Foundation

/// The real feeds, pages and lists in `Fixtures/feeds` (where each comes from: its SOURCES.md).
enum FeedFixtures {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()  // FeedFixtures.swift, Support, TimelineFeedsTests, Tests
    static let directory = root.appendingPathComponent("Fixtures/feeds")

    static func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    static func bytes(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: directory.appendingPathComponent(name)))
    }

    /// The files with one of `extensions`, sorted by name.
    static func files(withExtensions extensions: Set<String>) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { extensions.contains(($0 as NSString).pathExtension) }
            .sorted()
    }

    /// The RSS and Atom files: every one is compared with feedparser.
    static func xmlFeeds() throws -> [String] { try files(withExtensions: ["rss", "xml", "atom", "rdf"]) }

    /// The JSON Feed files.
    static func jsonFeeds() throws -> [String] { try files(withExtensions: ["json"]) }

    /// The address the tests say each feed was fetched from: relative links resolve against it.
    static let feedURL = "https://feeds.example.com/blog/feed"
}
