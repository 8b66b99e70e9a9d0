import Foundation
import Testing
import TimelineFeeds

/// What the formats' readers take from the elements the comparison with feedparser does not
/// cover: feed-level fields, `xml:base` on every level, authors, texts, refresh intervals.
@Suite struct FeedParserTests {
    @Test func atomResolvesEveryAddressAgainstTheXMLBaseInScope() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("xml-base.atom"), url: FeedFixtures.feedURL)
        #expect(feed.homeURL == "https://blog.example.org/root/")
        #expect(feed.feedURL == "https://blog.example.org/feeds/atom.xml")
        #expect(feed.items.map(\.link) == ["https://blog.example.org/root/posts/one.html", "https://other.example.net/a/c/two.html",
                                           "https://blog.example.org/deep/three"])
        #expect(feed.items[1].authors == [FeedAuthor(name: "Entry Author", url: "https://other.example.net/people/entry")])
    }

    @Test func anAtomEntryWithoutAnAuthorHasTheFeeds() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("xml-base.atom"), url: nil)
        #expect(feed.items[0].authors == [FeedAuthor(name: "Feed Author")])
    }

    @Test func atomTextConstructsKeepTheirKind() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("xml-base.atom"), url: nil)
        #expect(feed.title == "Bases & links")  // type="html": the XML "&amp;amp;" is the HTML "&amp;"
        #expect(feed.items[0].summary == .plain("One"))
        #expect(feed.items[1].title == "An XHTML title")
        #expect(feed.items[1].content == .html(#"<p>Two &amp; <a href="x">more</a></p>"#))
        #expect(feed.items[2].title == "Bold & entity")
        #expect(feed.items[2].content?.plainText == "Three")
    }

    @Test func rssReadsWindows1252RelativeLinksPermalinkGuidsAndTheLongerRefreshInterval() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("relative-links.rss"), url: FeedFixtures.feedURL)
        #expect(feed.title == "Relative links – windows-1252")
        #expect(feed.homeURL == "https://feeds.example.com/")
        // ttl 90 minutes; sy: daily, twice: 12 hours, the longer.
        #expect(feed.refreshInterval == .seconds(12 * 3600))
        #expect(feed.items.map(\.link) == ["https://feeds.example.com/posts/1", "https://feeds.example.com/blog/2",
                                           "https://feeds.example.com/blog/feed?p=3"])
        #expect(feed.items.map(\.id) == ["item-1", "https://feeds.example.com/blog/2", "https://feeds.example.com/blog/feed?p=3"])
        #expect(feed.items[0].authors == [FeedAuthor(name: "Ann")])
        #expect(feed.items[1].authors == [FeedAuthor(name: "Bob", email: "bob@example.com")])
    }

    @Test func atom03IsReadWithItsOwnDatesAndContentModes() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("atom03.atom"), url: nil)
        #expect(feed.format == .atom)
        #expect(feed.title == "Old <Atom> 0.3")
        #expect(feed.items.map(\.published) == [Date(timeIntervalSince1970: 1_122_812_969), Date(timeIntervalSince1970: 1_122_710_400)])
        #expect(feed.items[0].updated == Date(timeIntervalSince1970: 1_122_812_969))
        #expect(feed.items[0].content == .html("<p>Escaped &amp; HTML</p>"))
        #expect(feed.items[1].content == .html("<p>Inline</p>"))
        #expect(feed.items[0].authors == [FeedAuthor(name: "Old Author", url: "http://old.example.org/about")])
    }

    @Test func rss2InUserLandsNamespaceIsStillRSS() throws {
        let document = #"<rss xmlns="http://backend.userland.com/rss2" version="2.0"><channel><title>T</title><ttl>60</ttl><item><guid>g</guid></item></channel></rss>"#
        let feed = try FeedParser.parse(Array(document.utf8), url: nil)
        #expect(feed.title == "T")
        #expect(feed.refreshInterval == .seconds(3600))
        #expect(feed.items.map(\.id) == ["g"])
    }

    @Test func anItemWithNeitherGuidNorLinkGetsTheSameHashEachTime() throws {
        let document = "<rss><channel><item><title>A</title></item><item><title>B</title></item></channel></rss>"
        let first = try FeedParser.parse(Array(document.utf8), url: nil).items.map(\.id)
        let second = try FeedParser.parse(Array(document.utf8), url: nil).items.map(\.id)
        #expect(first == second)
        #expect(Set(first).count == 2)
        #expect(first.allSatisfy { $0.hasPrefix("hash:") })
    }

    @Test func rss1ItemsSitBesideTheChannelAndAreNamedByTheirAbout() throws {
        let feed = try FeedParser.parse(FeedFixtures.bytes("bio.rdf"), url: nil)
        #expect(feed.format == .rss1)
        #expect(feed.title == "bioRxiv Subject Collection: Plant Biology")
        #expect(feed.items.count == 30)
        #expect(feed.items.allSatisfy { $0.id.hasPrefix("http://biorxiv.org/") && $0.published != nil })
    }

    @Test(arguments: ["furbo.html", "inessential.html", "sixcolors.html"])
    func anHTMLPageIsNotAFeedAndSaysSo(_ file: String) throws {
        let page = try FeedFixtures.bytes(file)
        do throws(FeedError) {
            _ = try FeedParser.parse(page, url: nil)
            Issue.record("a page was read as a feed")
        } catch {
            #expect(error.problem.isHTMLPage)
        }
    }

    @Test func anotherXMLDocumentIsNotAFeedAndNamesItsRoot() {
        #expect(throws: FeedError(.notAFeed(found: "an XML document whose root is <svg in http://www.w3.org/2000/svg>"), line: 1)) {
            try FeedParser.parse(Array(#"<svg xmlns="http://www.w3.org/2000/svg"/>"#.utf8), url: nil)
        }
    }
}
