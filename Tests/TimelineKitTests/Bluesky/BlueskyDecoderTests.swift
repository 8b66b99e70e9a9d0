import Foundation
import Testing
@testable import TimelineKit

/// Bluesky answers as the atproto test suites recorded them (`Fixtures/Bluesky`), and the
/// hostile shapes a stranger's record may take.
@Suite struct BlueskyDecoderTests {
    private func fixture(_ name: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Bluesky/" + name))))
    }

    /// The feed items of a fixture, read by Foundation, to hold the decoder to.
    private func feed(_ name: String) throws -> [[String: Any]] {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try fixture(name))) as? [String: Any])
        return try #require(object["feed"] as? [[String: Any]])
    }

    @Test func theProxiedTimelineGivesEveryPostItsRepostsAndReplies() throws {
        let items = try feed("getTimeline-proxied.json")
        #expect(items.count == 14)
        let timeline = try BlueskyDecoder().decode(try fixture("getTimeline-proxied.json"), sourceName: "getTimeline-proxied.json")
        var reposts = 0, replies = 0
        for item in items {
            let post = item["post"] as! [String: Any]
            let uri = post["uri"] as! String
            let message = try #require(timeline.message(id: uri), "\(uri)")
            let record = post["record"] as! [String: Any]
            #expect(message.authorID == (post["author"] as! [String: Any])["did"] as? String)
            #expect(message.likeCount == post["likeCount"] as? Int ?? 0)
            if let reply = record["reply"] as? [String: Any] {
                replies += 1
                let parent = (reply["parent"] as! [String: Any])["uri"] as! String
                #expect(message.replyToID == parent)
                #expect(message.replyToUserID == ATURI(parent)?.did)
            } else {
                #expect(message.replyToID == nil)
            }
            if let reason = item["reason"] as? [String: Any], reason["$type"] as? String == "app.bsky.feed.defs#reasonRepost" {
                reposts += 1
                let repost = try #require(timeline.message(id: reason["uri"] as! String))
                #expect(repost.repostOfID == uri)
                #expect(repost.authorID == (reason["by"] as! [String: Any])["did"] as? String)
                #expect(repost.text.isEmpty)
            }
        }
        #expect(reposts == 3)
        #expect(replies == 4)
    }

    @Test func quotesImagesAndMentionsKeepWhatTheAppShows() throws {
        let timeline = try BlueskyDecoder().decode(try fixture("getTimeline-proxied.json"))
        // dan quotes carol, whose post quotes bob's with two described images.
        let quoting = try #require(timeline.messages.first { $0.text == "@alice.bluesky.xyz is the best" })
        let carolID = try #require(quoting.quoteOfID)
        let carol = try #require(timeline.message(id: carolID))
        #expect(carol.text == "hi im carol")
        #expect(carol.attachments.map(\.kind) == ["image", "image"])
        #expect(carol.attachments.map(\.altText) == ["../dev-env/assets/key-landscape-small.jpg", "../dev-env/assets/key-alt.jpg"])
        let bobID = try #require(carol.quoteOfID)
        let bob = try #require(timeline.message(id: bobID))
        #expect(bob.text == "bob back at it again!")
        #expect(bob.authorID == "did:plc:fixtureuser3")
        let author = try #require(timeline.user(id: "did:plc:fixtureuser3"))
        #expect(author.handle == "bob.test")
        #expect(author.name == "bobby")
        #expect(bob.url == "https://bsky.app/profile/bob.test/post/fixturerecord13")
    }

    @Test func everyRecordedFeedAndNotificationPageDecodes() throws {
        for name in ["getTimeline-alice.json", "getTimeline-bob.json"] {
            let items = try feed(name)
            let timeline = try BlueskyDecoder().decode(try fixture(name), sourceName: name)
            for item in items {
                let uri = (item["post"] as! [String: Any])["uri"] as! String
                #expect(timeline.message(id: uri) != nil, "\(name): \(uri)")
            }
        }
        let object = try #require(try JSONSerialization.jsonObject(with: Data(try fixture("listNotifications.json"))) as? [String: Any])
        let recorded = try #require(object["notifications"] as? [[String: Any]])
        var notifications: [DecodedNotification] = []
        let timeline = try APIDocumentReader.decode(try fixture("listNotifications.json"), sourceName: "listNotifications.json") {
            document, timeline throws(JSONLineFailure) in
            for (index, element) in (document["notifications"]?.arrayValue ?? []).enumerated() {
                notifications.append(try BlueskyNotification.decode(
                    JSONObjectView(element, path: "[\(index)]", expected: "a notification"), into: &timeline))
            }
        }
        #expect(notifications.count == recorded.count)
        for (notification, raw) in zip(notifications, recorded) {
            #expect(notification.id == raw["uri"] as? String)
            #expect(notification.actorID == (raw["author"] as! [String: Any])["did"] as? String)
            let reason = raw["reason"] as! String
            #expect(notification.kind == BlueskyNotification.kind(of: reason))
            switch reason {
            case "mention", "reply":
                let messageID = try #require(notification.messageID)
                let message = try #require(timeline.message(id: messageID))
                #expect(message.text == (raw["record"] as! [String: Any])["text"] as? String)
            case "like", "repost":
                #expect(notification.messageID == raw["reasonSubject"] as? String)
            default:
                #expect(notification.messageID == nil)
            }
        }
        #expect(Set(notifications.map(\.kind)) == [.reblog, .mention, .favourite, .follow, .reply])
    }

    // MARK: What an author writes

    private func post(text: String, facets: String = "[]", extra: String = "", createdAt: String = "2026-11-20T10:00:00.000Z",
                      indexedAt: String = "2026-11-20T10:00:01.000Z", handle: String = "alice.example") -> [UInt8] {
        Array("""
            {"feed":[{"post":{"uri":"at://did:plc:alice/app.bsky.feed.post/3kabc","cid":"c","indexedAt":"\(indexedAt)",
            "author":{"did":"did:plc:alice","handle":"\(handle)","displayName":"Alice"},
            "record":{"$type":"app.bsky.feed.post","text":\(text),"createdAt":"\(createdAt)","facets":\(facets)}\(extra)}}]}
            """.utf8)
    }

    private func onlyMessage(_ bytes: [UInt8]) throws -> Message {
        let timeline = try BlueskyDecoder().decode(bytes)
        return try #require(timeline.message(id: "at://did:plc:alice/app.bsky.feed.post/3kabc"))
    }

    @Test func shortenedLinksAreWrittenOutInFullAndLabelledLinksKeepTheirLabel() throws {
        // "see example.com/a-long... and docs 🦋": byte ranges in UTF-8.
        let text = "see example.com/a-long... and docs 🦋"
        let shortened = text.utf8.count - "see ".utf8.count - " and docs 🦋".utf8.count
        let docsStart = text.utf8.count - "docs 🦋".utf8.count
        let facets = """
            [{"index":{"byteStart":4,"byteEnd":\(4 + shortened)},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"https://example.com/a-long-path?q=1"}]},
             {"index":{"byteStart":\(docsStart),"byteEnd":\(docsStart + 4)},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"https://docs.example"}]}]
            """
        let message = try onlyMessage(post(text: "\"\(text)\"", facets: facets))
        #expect(message.text == "see https://example.com/a-long-path?q=1 and docs (https://docs.example) 🦋")
    }

    @Test(arguments: [
        ("https://example.com/a", "https://example.com/a", true),
        ("example.com/a", "https://example.com/a", true),
        ("example.com", "https://www.example.com/", true),
        ("example.com/very-lo...", "https://example.com/very-long-path", true),
        ("example.com/very-lo…", "http://example.com/very-long-path", true),
        ("exam...", "https://example.com/very-long-path", false),
        ("docs", "https://docs.example", false),
        ("click here", "https://example.com", false),
        ("example.com/other", "https://example.com/a", false),
    ])
    func aLinkIsWrittenOutOnlyWhereItsTextIsTheAddressShortened(shown: String, uri: String, isShortening: Bool) {
        #expect(BlueskyFacets.isShortening(shown, of: uri) == isShortening)
    }

    @Test func facetsOutOfTheTextInsideACharacterOrOverlappingAreIgnored() throws {
        let text = "héllo 🦋 world"
        func link(_ start: Int, _ end: Int) -> String {
            "{\"index\":{\"byteStart\":\(start),\"byteEnd\":\(end)},\"features\":[{\"$type\":\"app.bsky.richtext.facet#link\",\"uri\":\"https://x.example\"}]}"
        }
        let bad = [link(2, 4), link(0, 999), link(5, 3), link(-1, 2), link(7, 9),
                   "{\"index\":{\"byteStart\":\"0\",\"byteEnd\":1}}", "7", "{\"features\":3}"]
        for facet in bad {
            #expect(try onlyMessage(post(text: "\"\(text)\"", facets: "[\(facet)]")).text == text, "\(facet)")
        }
        // Overlapping: the first (by start) wins, the other is ignored.
        #expect(try onlyMessage(post(text: "\"\(text)\"", facets: "[\(link(0, 6)),\(link(3, 12))]")).text == "héllo (https://x.example) 🦋 world")
        // Facets that are not a list at all leave the text too.
        #expect(try onlyMessage(post(text: "\"\(text)\"", facets: "{}")).text == text)
    }

    @Test func aPostIsPlacedAtTheEarlierOfItsDateAndWhenTheServerSawIt() throws {
        let future = try onlyMessage(post(text: "\"from the future\"", createdAt: "2099-01-01T00:00:00Z"))
        #expect(future.createdAt == MillisecondTime.date(fromMilliseconds: try RFC3339Time.parse("2026-11-20T10:00:01.000Z").get()))
        let backdated = try onlyMessage(post(text: "\"an old post, imported\"", createdAt: "2010-05-01T00:00:00Z"))
        #expect(backdated.createdAt == MillisecondTime.date(fromMilliseconds: try RFC3339Time.parse("2010-05-01T00:00:00Z").get()))
        let nonsense = try onlyMessage(post(text: "\"a broken date\"", createdAt: "yesterday"))
        #expect(nonsense.createdAt == future.createdAt)
    }

    /// Issue 34: labels are facts for the person's rules (`LabelPreferences`), not a content
    /// warning (until then, `nudity` and `gore` became `"nudity, graphic media"`).
    @Test func labelsBecomeFactsForTheRulesNotAContentWarning() throws {
        let labeler = "did:plc:ar7c4by46qjdydhdevvrndac"
        let bytes = Array("""
            {"feed":[{"post":{"uri":"at://did:plc:alice/app.bsky.feed.post/3kabc","cid":"c","indexedAt":"2026-11-20T10:00:01.000Z",
            "author":{"did":"did:plc:alice","handle":"alice.example","labels":[
              {"src":"\(labeler)","uri":"did:plc:alice","val":"!warn","cts":"2026-11-20T10:00:00.000Z"},
              {"src":"did:plc:alice","uri":"at://did:plc:alice/app.bsky.actor.profile/self","val":"porn","cts":"2026-11-20T10:00:00.000Z"}]},
            "record":{"$type":"app.bsky.feed.post","text":"x","createdAt":"2026-11-20T10:00:00.000Z",
              "labels":{"$type":"com.atproto.label.defs#selfLabels","values":[{"val":"graphic-media"}]}},
            "labels":[
              {"src":"\(labeler)","uri":"at://did:plc:alice/app.bsky.feed.post/3kabc","val":"nudity","cts":"2026-11-20T10:00:00.000Z"},
              {"src":"did:plc:other","uri":"at://did:plc:alice/app.bsky.feed.post/3kabc","val":"gore","cts":"2026-11-20T10:00:00.000Z"},
              {"src":"did:plc:other","uri":"at://did:plc:alice/app.bsky.feed.post/3kabc","val":"gore","neg":true,"cts":"2026-11-20T10:00:02.000Z"},
              {"src":"did:plc:alice","uri":"at://did:plc:alice/app.bsky.feed.post/3kabc","val":"graphic-media","cts":"2026-11-20T10:00:00.000Z"},
              {"val":"no-source"}, {"src":"not-a-did","val":"x"}, "not a label"]}}]}
            """.utf8)
        let message = try onlyMessage(bytes)
        #expect(message.contentWarning == nil)
        #expect(message.moderation.labels == [
            ContentLabel(source: labeler, value: "nudity"),
            ContentLabel(source: "did:plc:alice", value: "graphic-media"),
            ContentLabel(source: labeler, value: "!warn", isOnAuthor: true),
        ])
    }

    /// Hostile labels: a value of 100 KB is no label (`val` is at most 128 bytes), and of
    /// 100,000 labels the first 64 are kept.
    @Test func hostileLabelsAreBounded() throws {
        let long = String(repeating: "a", count: 100_000)
        let many = (0..<100_000).map { #"{"src":"did:plc:l","val":"v\#($0)"}"# }.joined(separator: ",")
        let message = try onlyMessage(post(text: "\"x\"", extra: #","labels":[{"src":"did:plc:l","val":"\#(long)"},\#(many)]"#))
        #expect(message.moderation.labels.count == BlueskyDecoder.maximumLabels)
        #expect(message.moderation.labels.first == ContentLabel(source: "did:plc:l", value: "v0"))
    }

    @Test func anInvalidHandleGivesAWebAddressByDID() throws {
        let message = try onlyMessage(post(text: "\"x\"", handle: "handle.invalid"))
        #expect(message.url == "https://bsky.app/profile/did:plc:alice/post/3kabc")
        let hostile = try onlyMessage(post(text: "\"x\"", handle: "evil\\u001b[2J.example"))
        #expect(hostile.url == "https://bsky.app/profile/did:plc:alice/post/3kabc")
    }

    @Test func whatTheServerMustSayIsRequiredAndNamedWhenMissing() throws {
        let noAuthor = Array(#"{"feed":[{"post":{"uri":"at://did:plc:a/app.bsky.feed.post/1","record":{"text":"x"}}}]}"#.utf8)
        #expect(throws: ImportError.self) { try BlueskyDecoder().decode(noAuthor) }
        do {
            _ = try BlueskyDecoder().decode(noAuthor, sourceName: "page.json")
        } catch {
            #expect(error.field == "feed[0].post.author")
            #expect(error.source == "page.json")
        }
        let notAURI = Array(#"{"feed":[{"post":{"uri":"https://x","author":{"did":"did:plc:a","handle":"a.test"},"record":{"text":"x"}}}]}"#.utf8)
        #expect(throws: ImportError.self) { try BlueskyDecoder().decode(notAURI) }
        let notADID = Array(#"{"feed":[{"post":{"uri":"at://did:plc:a/app.bsky.feed.post/1","author":{"did":"plc:a","handle":"a.test"},"record":{"text":"x"}}}]}"#.utf8)
        #expect(throws: ImportError.self) { try BlueskyDecoder().decode(notADID) }
        #expect(throws: ImportError.self) { try BlueskyDecoder().decode(Array(#"{"statuses":[]}"#.utf8)) }
    }

    @Test func idsThatAreNotATURIsNeverNameWhatIsStored() throws {
        // A repost whose record URI is another network's ID keeps an ID of its own post instead.
        let repost = #","reason":{"$type":"app.bsky.feed.defs#reasonRepost","uri":"mastodon.social/1","by":{"did":"did:plc:b","handle":"b.test"},"indexedAt":"2026-11-20T11:00:00Z"}"#
        let bytes = Array(String(decoding: post(text: "\"x\""), as: UTF8.self).replacingOccurrences(of: "}}]}", with: "}" + repost + "}]}").utf8)
        let timeline = try BlueskyDecoder().decode(bytes)
        #expect(timeline.message(id: "mastodon.social/1") == nil)
        #expect(timeline.messages.contains { $0.repostOfID == "at://did:plc:alice/app.bsky.feed.post/3kabc" && $0.id.hasPrefix("at://") })
        // A quote of a missing post names it only by an AT URI.
        let missing = #","embed":{"$type":"app.bsky.embed.record#view","record":{"$type":"app.bsky.embed.record#viewNotFound","uri":"mastodon.social/2"}}"#
        #expect(try onlyMessage(post(text: "\"x\"", extra: missing)).quoteOfID == nil)
    }

    @Test func aLinkCardAddsItsAddressWhenTheTextLacksIt() throws {
        let card = #","embed":{"$type":"app.bsky.embed.external#view","external":{"uri":"https://news.example/story","title":"A story"}}"#
        #expect(try onlyMessage(post(text: "\"read this\"", extra: card)).text == "read this\n\nhttps://news.example/story")
        #expect(try onlyMessage(post(text: "\"https://news.example/story\"", extra: card)).text == "https://news.example/story")
    }
}
