import Foundation
import Testing
import TimelineFeeds

@Suite struct FeedDiscoveryTests {
    /// Each real page's feed, as its `<link rel="alternate">` names it.
    @Test(arguments: [("furbo.html", "http://furbo.org/feed/", "Iconfactory News Feed"),
                      ("inessential.html", "http://inessential.com/xml/rss.xml", "RSS"),
                      ("sixcolors.html", "http://feedpress.me/sixcolors", "RSS")])
    func aRealPageNamesItsFeed(_ file: String, _ url: String, _ title: String) throws {
        let feeds = FeedDiscovery.feeds(inPage: try FeedFixtures.bytes(file), url: "https://example.com/")
        #expect(feeds == [DiscoveredFeed(url: url, format: .rss2, title: title)])
    }

    @Test func relativeHrefsResolveAgainstThePageOrItsBaseAndEachFormatIsKnown() {
        let page = """
            <!DOCTYPE html><html><head>
            <!-- <link rel="alternate" type="application/rss+xml" href="/commented-out"> -->
            <LINK REL="Alternate stylesheet" TYPE="application/atom+xml" HREF="atom.xml" title='Atom &amp; more'>
            <link rel=alternate type=application/feed+json href=feed.json>
            <base href="https://cdn.example.net/b/">
            <link rel="alternate" type="application/rss+xml; charset=utf-8" href="../rss">
            <link rel="alternate" type="application/json" href="/api">
            <link rel="stylesheet" type="application/rss+xml" href="/not-alternate">
            <link rel="alternate" type="application/rss+xml" href="../rss">
            </head></html>
            """
        let feeds = FeedDiscovery.feeds(inPage: Array(page.utf8), url: "https://example.com/blog/post")
        // The base applies to links after it, as the scan meets it; the duplicate is named once.
        #expect(feeds == [
            DiscoveredFeed(url: "https://example.com/blog/atom.xml", format: .atom, title: "Atom & more"),
            DiscoveredFeed(url: "https://example.com/blog/feed.json", format: .jsonFeed),
            DiscoveredFeed(url: "https://cdn.example.net/rss", format: .rss2),
        ])
    }

    @Test func aTagCutOffByTheEndOfThePageNamesNothingAndDoesNotCrash() {
        for page in ["<link rel=\"alternate\" type=\"application/rss+xml\" href=\"/x", "<link", "<", "<!--", "<base href="] {
            #expect(FeedDiscovery.feeds(inPage: Array(page.utf8), url: "https://example.com/").isEmpty)
        }
    }

    @Test func onlyTheFirstMegabyteIsScanned() {
        let link = Array(#"<link rel="alternate" type="application/rss+xml" href="/feed">"#.utf8)
        let late = [UInt8](repeating: UInt8(ascii: " "), count: FeedDiscovery.maximumScannedBytes) + link
        #expect(FeedDiscovery.feeds(inPage: late, url: "https://example.com/").isEmpty)
        #expect(FeedDiscovery.feeds(inPage: link, url: "https://example.com/").count == 1)
    }
}
