import Foundation
import Testing
import TimelineFeeds

@Suite struct OPMLDocumentTests {
    /// How many outlines of a file have a non-empty `xmlUrl`, counted from the text.
    static func feedOutlines(in text: String) -> Int {
        text.components(separatedBy: "xmlUrl=\"").dropFirst().filter { !$0.hasPrefix("\"") }.count
    }

    @Test(arguments: ["Subs.opml", "SubsNoTitleAttributes.opml"])
    func everyOutlineWithAnXMLURLAtAnyDepthIsASubscription(_ file: String) throws {
        let bytes = try FeedFixtures.bytes(file)
        let list = try OPMLDocument(parsing: bytes)
        #expect(list.subscriptions.count == Self.feedOutlines(in: String(decoding: bytes, as: UTF8.self)))
        #expect(list.subscriptions.count > 200)
    }

    @Test func nestedOutlinesAreTheFoldersOfTheFeedsInThem() throws {
        let list = try OPMLDocument(parsing: FeedFixtures.bytes("Subs.opml"))
        #expect(list.title == "Subs")
        #expect(list.subscriptions.first == OPMLSubscription(feedURL: "http://daringfireball.net/feeds/main", title: "Daring Fireball",
                                                              homeURL: "http://daringfireball.net/"))
        #expect(list.subscriptions.contains { $0.title == "chat & code" })
        let folders = Set(list.subscriptions.compactMap(\.folders.first))
        #expect(folders == ["Programming", "Macintosh", "Weblogs", "Writers"])
    }

    @Test func aWrittenListReadsBackTheSame() throws {
        let list = try OPMLDocument(parsing: FeedFixtures.bytes("Subs.opml"))
        let again = try OPMLDocument(parsing: Array(list.xml().utf8))
        #expect(Set(again.subscriptions) == Set(list.subscriptions))
        #expect(again.title == list.title)
    }

    @Test func writingEscapesWhatWouldBreakTheMarkup() throws {
        let list = OPMLDocument(title: "a <b> & \"c\"", subscriptions: [
            OPMLSubscription(feedURL: "https://example.com/feed?a=1&b=\"2\"", title: "<Tom & Jerry>", folders: ["x & y", "z"]),
        ])
        let again = try OPMLDocument(parsing: Array(list.xml().utf8))
        #expect(again == list)
    }

    @Test func aDocumentThatIsNotOPMLSaysWhatItIs() throws {
        #expect(throws: FeedError(.notAFeed(found: "an XML document whose root is <rss>, not <opml>"), line: 1)) {
            try OPMLDocument(parsing: Array("<rss/>".utf8))
        }
    }
}
