import Foundation
import Testing
@testable import TimelineKit

/// A message's web links (issue 37): the anchors of a Mastodon status (whose text hides
/// `https://` in an invisible span), a Bluesky post's link facets and card, kept by one bounded
/// rule whatever a stranger's post holds.
@Suite struct MessageLinksTests {
    /// The content of the status the issue was found with, as Mastodon 4 writes a link.
    static let articleContent = #"<p>read <a href="https://example.org/article" rel="nofollow noopener" target="_blank"><span class="invisible">https://</span><span class="">example.org/article</span><span class="invisible"></span></a></p>"#

    /// A Mastodon status array of one status with `content`.
    static func mastodonStatus(_ content: String) -> [UInt8] {
        var json: [UInt8] = []
        JSONLineEncoder.appendString(content, to: &json)
        return Array("""
            [{"id":"1","created_at":"2026-11-20T10:00:00.000Z","visibility":"public","spoiler_text":"","content":
            """.utf8) + json + Array("""
            ,"account":{"id":"9","username":"a","acct":"a","display_name":"A"},"media_attachments":[]}]
            """.utf8)
    }

    private func mastodonMessage(_ content: String) throws -> Message {
        try #require(try MastodonDecoder().decode(Self.mastodonStatus(content)).messages.first)
    }

    @Test func aMastodonLinkWhoseSchemeIsInvisibleIsKeptWhole() throws {
        let message = try mastodonMessage(Self.articleContent)
        #expect(message.text == "read example.org/article")
        #expect(message.links == ["https://example.org/article"])
        #expect(message.webLinks == ["https://example.org/article"])
        // The text alone has no link in it: what `open --link` read before.
        #expect(WebLinks.find(in: message.text).isEmpty)
    }

    @Test func mentionsAndHashtagsAreNotLinks() throws {
        let content = #"<p><span class="h-card"><a href="https://social.example/@bob" class="u-url mention">@<span>bob</span></a></span> "#
            + #"<a href="https://social.example/tags/swift" class="mention hashtag" rel="tag">#<span>swift</span></a> "#
            + #"<a href="https://social.example/tags/other" rel="nofollow tag">#other</a> "#
            + #"<a href="https://b.example/x?a=1&amp;b=2">b</a> <a href="https://a.example/">a</a> <a href="https://b.example/x?a=1&amp;b=2">again</a></p>"#
        #expect(try mastodonMessage(content).links == ["https://b.example/x?a=1&b=2", "https://a.example/"])
    }

    @Test func hostileAnchorsAreBoundedAndOnlyWebLinksKept() throws {
        let flood = (0..<1_000).map { #"<a href="https://flood.example/\#($0)">\#($0)</a>"# }.joined()
        let links = try mastodonMessage("<p>" + flood + "</p>").links
        #expect(links == (0..<20).map { "https://flood.example/\($0)" })

        let long = "https://long.example/" + String(repeating: "a", count: 10 * 1_024)
        let content = #"<p><a href="javascript:alert(1)">x</a><a href="JavaScript:alert(2)">y</a><a href="\#(long)">z</a>"#
            + #"<a href="/relative">r</a><a href="mailto:a@example.org">m</a><a href="https://">empty</a>"#
            + #"<a href="https://x.example/a b">space</a><a href="HTTPS://Kept.example/">k</a><a href="https://unclosed.example/"#
        #expect(try mastodonMessage(content).links == ["HTTPS://Kept.example/"])
    }

    @Test func theRuleKeepsWebLinksWithinTheLimitsInOrderOnce() {
        let atLimit = "https://a.example/" + String(repeating: "b", count: MessageLinks.maximumBytes - 18)
        #expect(atLimit.utf8.count == MessageLinks.maximumBytes)
        #expect(MessageLinks.kept([atLimit, atLimit + "c", "javascript:x", "http://b.example", "https://c.example/\u{1b}[2J", atLimit])
            == [atLimit, "http://b.example"])
        #expect(MessageLinks.kept((0..<100).map { "https://x.example/\($0)" }).count == MessageLinks.maximumCount)
    }

    /// A Bluesky feed of one post with `facets` and, after the record, `extra` (an embed).
    private func blueskyMessage(text: String, facets: String, extra: String = "") throws -> Message {
        let bytes = Array("""
            {"feed":[{"post":{"uri":"at://did:plc:alice/app.bsky.feed.post/3kabc","cid":"c","indexedAt":"2026-11-20T10:00:01.000Z",
            "author":{"did":"did:plc:alice","handle":"alice.example","displayName":"Alice"},
            "record":{"$type":"app.bsky.feed.post","text":"\(text)","createdAt":"2026-11-20T10:00:00.000Z","facets":\(facets)}\(extra)}}]}
            """.utf8)
        return try #require(try BlueskyDecoder().decode(bytes).message(id: "at://did:plc:alice/app.bsky.feed.post/3kabc"))
    }

    @Test func blueskyLinkFacetsInTextOrderThenTheLinkCard() throws {
        // "docs and example.com/a..." with the second facet listed first.
        let facets = """
            [{"index":{"byteStart":9,"byteEnd":25},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"https://example.com/a-long"}]},
             {"index":{"byteStart":0,"byteEnd":4},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"https://docs.example"}]},
             {"index":{"byteStart":5,"byteEnd":8},"features":[{"$type":"app.bsky.richtext.facet#mention","did":"did:plc:bob"}]},
             {"index":{"byteStart":0,"byteEnd":1},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"javascript:alert(1)"}]}]
            """
        let card = #","embed":{"$type":"app.bsky.embed.external#view","external":{"uri":"https://news.example/story","title":"A story"}}"#
        let message = try blueskyMessage(text: "docs and example.com/a...", facets: facets, extra: card)
        #expect(message.links == ["https://docs.example", "https://example.com/a-long", "https://news.example/story"])

        // A card alone, and a card whose address the text already holds: once either way.
        #expect(try blueskyMessage(text: "read", facets: "[]", extra: card).links == ["https://news.example/story"])
        let linked = #"[{"index":{"byteStart":0,"byteEnd":26},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"https://news.example/story"}]}]"#
        #expect(try blueskyMessage(text: "https://news.example/story", facets: linked, extra: card).links == ["https://news.example/story"])
    }

    /// A message stored before links were has none: `open --link` reads its text as before.
    @Test func withoutStoredLinksTheTextsLinksAreTheWebLinks() {
        var message = Message(id: "m", authorID: "u", text: "see https://one.example/a", createdAt: Date(timeIntervalSince1970: 0))
        #expect(message.webLinks == ["https://one.example/a"])
        message.links = ["https://two.example/"]
        #expect(message.webLinks == ["https://two.example/"])
    }

    /// `snapshot --dump` and embedders decode JSON an older version wrote, without `links`.
    @Test func codableReadsAMessageWithoutLinksAsNone() throws {
        var message = Message(id: "m", authorID: "u", text: "x", createdAt: Date(timeIntervalSince1970: 0), links: ["https://a.example/"])
        let data = try JSONEncoder().encode(message)
        #expect(try JSONDecoder().decode(Message.self, from: data) == message)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["links"] = nil
        message.links = []
        #expect(try JSONDecoder().decode(Message.self, from: try JSONSerialization.data(withJSONObject: object)) == message)
    }
}
