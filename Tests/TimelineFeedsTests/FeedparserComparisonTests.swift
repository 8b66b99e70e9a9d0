import Foundation
import Testing
import TimelineFeeds
import TimelineKit

/// Every real RSS and Atom feed in `Fixtures/feeds`, read by TimelineFeeds and by Python's
/// feedparser (the reference parser nobody here wrote, pinned in `tools/feedparser`), must give
/// the same items: count, IDs, titles, links and dates. feedparser does not read JSON Feed;
/// those are judged by the spec's fields in `JSONFeedTests`.
@Suite struct FeedparserComparisonTests {
    static let python = FeedFixtures.root.appendingPathComponent(".build/feedparser/bin/python").path
    static let script = FeedFixtures.root.appendingPathComponent("tools/feedparser/dump.py").path

    struct Reference: Decodable {
        struct Item: Decodable {
            var id: String?
            var title: String?
            var link: String?
            var published: Double?
            var updated: Double?
        }

        var version: String?
        var title: String?
        var items: [Item]
    }

    /// feedparser's reading of every file, in one Python process.
    static func references(_ files: [String]) throws -> [String: Reference] {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            Issue.record("feedparser is not installed (\(python) is missing): run `make test-deps` or tools/feedparser/setup")
            return [:]
        }
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, FeedFixtures.feedURL] + files.map(FeedFixtures.path)
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "dump.py exited with \(process.terminationStatus)")
        let byPath = try JSONDecoder().decode([String: Reference].self, from: data)
        return Dictionary(uniqueKeysWithValues: files.map { ($0, byPath[FeedFixtures.path($0)]!) })
    }

    /// A title as a reader sees it, spaces made single. Ours are plain text already; feedparser's
    /// are sanitised HTML (it keeps "safe" markup and escapes `<` and `&`), read as HTML here.
    static func shown(_ title: String?, isHTML: Bool = false) -> String? {
        title.flatMap { (isHTML ? MastodonHTML.plainText($0) : $0).split(whereSeparator: \.isWhitespace).joined(separator: " ") }
            .flatMap { $0.isEmpty ? nil : $0 }
    }

    @Test func everyRealRSSAndAtomFeedReadsAsFeedparserReadsIt() throws {
        let files = try FeedFixtures.xmlFeeds()
        #expect(files.count >= 17, "the fixtures are missing: \(files)")
        let references = try Self.references(files)
        var differences: [String] = []
        var compared = 0
        for file in files {
            guard let reference = references[file] else { continue }
            let feed = try FeedParser.parse(FeedFixtures.bytes(file), url: FeedFixtures.feedURL)
            guard feed.items.count == reference.items.count else {
                differences.append("\(file): \(feed.items.count) items, feedparser \(reference.items.count)")
                continue
            }
            if Self.shown(feed.title) != Self.shown(reference.title, isHTML: true) {
                differences.append("\(file): feed title \(feed.title ?? "nil") / feedparser \(reference.title ?? "nil")")
            }
            for (index, (item, expected)) in zip(feed.items, reference.items).enumerated() {
                let place = "\(file) item \(index)"
                // feedparser has no ID for an item without guid or id; ours is then its link or a hash.
                if let id = expected.id, item.id != id { differences.append("\(place): id \(item.id) / feedparser \(id)") }
                if Self.shown(item.title) != Self.shown(expected.title, isHTML: true) {
                    differences.append("\(place): title \(item.title ?? "nil") / feedparser \(expected.title ?? "nil")")
                }
                if item.link != expected.link { differences.append("\(place): link \(item.link ?? "nil") / feedparser \(expected.link ?? "nil")") }
                // The date a message gets: published, else updated (feedparser files `dc:date` as updated).
                let date = (item.published ?? item.updated)?.timeIntervalSince1970
                let expectedDate = expected.published ?? expected.updated
                if date.map({ $0.rounded(.down) }) != expectedDate {
                    differences.append("\(place): date \(date.map { "\($0)" } ?? "nil") / feedparser \(expectedDate.map { "\($0)" } ?? "nil")")
                }
                compared += 1
            }
        }
        #expect(differences.isEmpty, "\(differences.count) differences:\n\(differences.prefix(40).joined(separator: "\n"))")
        #expect(compared > 300, "only \(compared) items compared")
    }
}
