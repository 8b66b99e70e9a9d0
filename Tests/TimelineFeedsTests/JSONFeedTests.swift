import Foundation
import Testing
import TimelineFeeds

/// JSON Feeds judged by the spec's fields (feedparser does not read them): every item's `id`,
/// `url`, `title`, `content_html` and `date_published` as Foundation's own JSON reader and
/// RFC 3339 formatter see them in the same file.
@Suite struct JSONFeedTests {
    static let jsonFeeds = ["allthis.json", "authors.json", "curt.json", "jsonfeed-extension.json"]

    @Test(arguments: jsonFeeds)
    func realJSONFeedItemsCarryTheSpecsFields(_ file: String) throws {
        let bytes = try FeedFixtures.bytes(file)
        let feed = try FeedParser.parse(bytes, url: FeedFixtures.feedURL)
        let document = try #require(try JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any])
        let items = try #require(document["items"] as? [[String: Any]])
        #expect(feed.format == .jsonFeed)
        #expect(feed.title == document["title"] as? String)
        #expect(feed.items.count == items.count)
        let rfc3339 = ISO8601DateFormatter()
        for (item, expected) in zip(feed.items, items) {
            #expect(item.id == expected["id"] as? String)
            #expect(item.link == expected["url"] as? String)
            #expect(item.title == expected["title"] as? String)
            if let html = expected["content_html"] as? String, !html.isEmpty { #expect(item.content == .html(html)) }
            if let text = expected["date_published"] as? String, let date = rfc3339.date(from: text) {
                #expect(item.published == date)
            }
        }
    }

    @Test func a1_1FeedsAuthorsReachItemsWithoutTheirOwnAnd1_0AuthorIsRead() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("authors.json"), url: nil)
        let names = feed.items.map { $0.authors.compactMap(\.name) }
        #expect(names == [["Root Author 1", "Root Author 2"], ["Legacy Item Author"], ["Item Author 1", "Item Author 2"],
                          ["Item Author 1", "Item Author 2"]])
    }

    @Test func aDateWithoutSecondsOrZoneIsReadAsUTC() throws {
        // curt.json writes "2018-01-06T08:00": not RFC 3339, but clear.
        let feed = try FeedParser.parse(FeedFixtures.bytes("curt.json"), url: nil)
        #expect(feed.items.first?.published == Date(timeIntervalSince1970: 1_515_225_600))
    }

    @Test func jsonThatIsNotAJSONFeedIsNotAFeed() throws {
        // ScriptingNews.json is RSS written as JSON, with no JSON Feed `version`.
        #expect(throws: FeedError(.notAFeed(found: "JSON without a JSON Feed \"version\""))) {
            try FeedParser.parse(FeedFixtures.bytes("ScriptingNews.json"), url: nil)
        }
    }

    @Test func aNumericIDIsItsDigitsAndRelativeURLsResolve() throws {
        let document = #"{"version": "https://jsonfeed.org/version/1.1", "home_page_url": "/", "items": [{"id": 12345678901234567890, "url": "p/1"}]}"#
        let feed = try FeedParser.parse(Array(document.utf8), url: "https://example.com/blog/feed.json")
        #expect(feed.items.first?.id == "12345678901234567890")
        #expect(feed.items.first?.link == "https://example.com/blog/p/1")
        #expect(feed.homeURL == "https://example.com/")
    }

    @Test func missingItemsIsRefusedAsTheSpecRequiresThem() {
        #expect(throws: FeedError(.invalidJSONFeed("\"items\" must be an array, and is required"), line: 1)) {
            try FeedParser.parse(Array(#"{"version": "https://jsonfeed.org/version/1"}"#.utf8), url: nil)
        }
    }

    @Test func deeplyNestedJSONIsRefusedQuicklyByTheReadersDepthLimit() {
        let document = #"{"version": "https://jsonfeed.org/version/1", "items": "# + String(repeating: "[", count: 100_000)
        let start = ContinuousClock.now
        do throws(FeedError) {
            _ = try FeedParser.parse(Array(document.utf8), url: nil)
            Issue.record("100,000 nested arrays were read")
        } catch {
            guard case let .malformedJSON(sentence) = error.problem else { return #expect(Bool(false), "\(error)") }
            #expect(sentence.contains("nested more than"))
            #expect(error.line == 1)
        }
        #expect(ContinuousClock.now - start < .seconds(2))
    }

    @Test func malformedJSONSaysWhereInTheReadersWords() {
        do throws(FeedError) {
            _ = try FeedParser.parse(Array("{\"version\": \"https://jsonfeed.org/version/1\",\n \"items\": [,]}".utf8), url: nil)
            Issue.record("malformed JSON was read")
        } catch {
            guard case .malformedJSON = error.problem else { return #expect(Bool(false), "\(error)") }
            #expect(error.line == 2)
        }
    }
}
