import Foundation
import Testing
import TimelineKit

@Suite struct MastodonDecoderTests {
    @Test func thePublicTimelineOfPre2Point0IntegerIDsKeepsTheirExactDigits() throws {
        let timeline = try RealData.mastodon("mastodon4j/public_timeline.json")
        #expect(timeline.messages.count == 20)
        #expect(Set(timeline.users.map(\.id)).count == 19)
        let status = try #require(timeline.message(id: "172429"))
        #expect(status.authorID == "14476")
        #expect(timeline.user(id: "14476")?.handle == "iorin0225")
        #expect(timeline.user(id: "14476")?.name == "イオリン")
        #expect(status.text == "電話であれ、テキストであれ、伝達能力はしっかり鍛えてほしい。")
        #expect(status.createdAt == RealData.date(milliseconds: 1_492_150_301_893))  // 2017-04-14T06:11:41.893Z
        #expect(status.url == "https://mstdn.jp/@iorin0225/172429")
        #expect(timeline.message(id: "172407")?.text == "それっぽいウソ話とか\n変なリプライとかが一切無いこの空間は良いねー")
    }

    @Test func theHashtagTimelineHasItsRepliesMediaAndMentionsAsText() throws {
        let timeline = try RealData.mastodon("mastodon4j/tag.json")
        #expect(timeline.messages.count == 20)
        #expect(timeline.users.count == 17)
        #expect(timeline.messages.filter { $0.replyToID != nil }.count == 8)
        #expect(timeline.messages.filter { !$0.attachments.isEmpty }.count == 3)
        let reply = try #require(timeline.message(id: "714859"))
        #expect(reply.replyToID == "675923")
        #expect(timeline.user(id: reply.authorID)?.handle == "jeroenpraat@mastodon.social")
        #expect(reply.text.hasPrefix("@alexl @deadsuperhero  Yes, but not only #Mastodon should be compatible"))
        #expect(timeline.users.contains { $0.name == "בנימן" })
        // A link the server shortened: the hidden parts are gone, an ellipsis marks the cut.
        let media = try #require(timeline.message(id: "712113"))
        #expect(media.text.contains("framapiaf.org/media/cLJI8QfPLw…"))
        #expect(!media.text.contains("https://"))
    }

    @Test func aStatusContextKeepsItsReplyChain() throws {
        let timeline = try RealData.mastodon("mastodon4j/context.json")
        #expect(timeline.messages.map(\.id) == ["6884492", "6884692", "6886129"])
        let reply = try #require(timeline.message(id: "6884692"))
        #expect(reply.replyToID == "6884492")
        #expect(reply.text == "@test\n引っ越してドトールない街に移ったのでやけに美味しそう")
        #expect(timeline.user(id: reply.authorID)?.handle == "test2")
    }

    @Test func anAccountListBecomesUsersWithTheUsernameForAnEmptyDisplayName() throws {
        let timeline = try RealData.mastodon("mastodon4j/account_search.json")
        #expect(timeline.users.count == 40)
        #expect(timeline.messages.isEmpty)
        let user = try #require(timeline.user(id: "78"))
        #expect(user.handle == "A")
        #expect(user.name == "A")
        #expect(user.url == "https://mstdn.jp/@A")
    }

    @Test func theIDRepeatedInTokodonStatusesEndsAsOneMessageWithItsLastVersion() throws {
        let timeline = try RealData.mastodon("tokodon/statuses.json")
        #expect(timeline.messages.map(\.id).sorted()
            == ["103270115826038975", "103270115826048975", "103270115826048976", "103270115826048977"])
        #expect(timeline.users.map(\.handle) == ["Gargron"])
        // The last of its four top-level copies has one attachment.
        #expect(timeline.message(id: "103270115826038975")?.attachments.count == 1)
        #expect(timeline.message(id: "103270115826048977")?.quoteOfID == "103270115826038975")
        #expect(timeline.message(id: "103270115826048977")?.text == "Quoted posts!")
        #expect(timeline.message(id: "103270115826048975")?.contentWarning == "SPOILER")
        #expect(timeline.message(id: "103270115826038975")?.contentWarning == nil)
    }

    @Test func tokodonContextAndOlderPageDecode() throws {
        let context = try RealData.mastodon("tokodon/context.json")
        #expect(context.messages.count == 3)
        #expect(context.message(id: "103270115826048976")?.replyToID == "103270115826048975")
        #expect(context.message(id: "103270115826048976")?.replyToUserID == "1")
        let older = try RealData.mastodon("tokodon/statuses-older.json")
        #expect(older.messages.map(\.id) == ["103270114826048975", "103270113826038975"])
        #expect(older.message(id: "103270114826048975")?.text == "LOREM")
    }

    @Test func notificationsImportTheStatusesTheyCarryAndSkipTheRest() throws {
        let timeline = try RealData.mastodon("tokodon/notifications.json")
        // Nine notifications: reblog, quote, mention and status carry statuses (two distinct);
        // follow, admin.sign_up, admin.report, severed_relationships, moderation_warning do not.
        #expect(timeline.messages.map(\.id).sorted() == ["103270115826048975", "103270115826048976"])
        #expect(timeline.users.map(\.handle) == ["Gargron"])
    }

    @Test func aPleromaPostKeepsItsFlakeIDContentWarningAndAltText() throws {
        let timeline = try RealData.mastodon("TootSDK/post with emojis and attachments.json")
        let post = try #require(timeline.message(id: "AQetOIEp6Z2GZ4UiI4"))
        #expect(post.authorID == "APEilAvuVZZU5LVFCa")
        #expect(timeline.user(id: "APEilAvuVZZU5LVFCa")?.name == "Konstantin :veripawed: :veritrek: :rainbow_pride_potion:")
        #expect(post.text == "I just #love #coffee :heart_cup:  There is no better way to start the day.")
        #expect(post.contentWarning == "Coffee, Star Trek")
        #expect(post.attachments.count == 1)
        #expect(post.attachments.first?.kind == "image")
        #expect(post.attachments.first?.altText?.hasPrefix("Cartoon poster of Captain Janeway") == true)
        #expect(post.likeCount == 16)
        #expect(post.repostCount == 12)
        #expect(post.url == "https://m.iamkonstantin.eu/notice/AQetOIEp6Z2GZ4UiI4")
    }

    @Test func theWordleGridKeepsOneRowPerLine() throws {
        let timeline = try RealData.mastodon("TootSDK/post wordle linebreaks.json")
        #expect(timeline.messages.first?.text
            == "Wordle 591 X/6*\n\n🟨⬛🟩🟨⬛\n🟨⬛🟩⬛🟩\n🟩🟩🟩⬛🟩\n🟩🟩🟩⬛🟩\n🟩🟩🟩⬛🟩\n🟩🟩🟩⬛🟩")
    }

    @Test func theAkkomaQuoteLinksAndStoresTheQuotedPostWithItsAuthor() throws {
        let timeline = try RealData.mastodon("TootSDK/post_akkoma_quote.json")
        let post = try #require(timeline.message(id: "Al30Y6dIQNzsEKhR5s"))
        #expect(post.quoteOfID == "Al2KABLN3tuRoeE0A4")
        #expect(post.text == "from @technicat\n\nhttps://universeodon.com/@technicat/112973737736509814")
        let quoted = try #require(timeline.message(id: "Al2KABLN3tuRoeE0A4"))
        #expect(quoted.text == "got a flu shot and fruit tea")
        #expect(timeline.user(id: quoted.authorID)?.handle == "technicat@universeodon.com")
        #expect(quoted.attachments.first?.altText == "fruit tea next to a pharmacy paper bag of vaccine info")
    }

    @Test func aReblogBecomesARepostAndTheOriginalWithItsAuthor() throws {
        let json = """
            [{"id":"200","created_at":"2026-11-20T10:00:00.000Z","content":"","reblog":
              {"id":"100","created_at":"2026-11-19T09:00:00Z","content":"<p>original &amp; true</p>","edited_at":"2026-11-19T09:30:00Z",
               "account":{"id":"1","acct":"alice@example.social","display_name":"Alice","bot":true,"url":"https://example.social/@alice"},
               "favourites_count":3,"reblogs_count":2,"replies_count":1,"visibility":"public","new_field":{"x":[1]}},
              "account":{"id":"2","acct":"bob","display_name":"","username":"bob"},
              "url":null,"uri":"https://home.example/users/bob/statuses/200/activity"}]
            """
        let timeline = try MastodonDecoder().decode(Array(json.utf8))
        let repost = try #require(timeline.message(id: "200"))
        #expect(repost.repostOfID == "100")
        #expect(repost.text == "")
        #expect(repost.authorID == "2")
        #expect(repost.url == "https://home.example/users/bob/statuses/200/activity")
        let original = try #require(timeline.message(id: "100"))
        #expect(original.text == "original & true")
        #expect(original.editedAt == RealData.date("2026-11-19T09:30:00Z"))
        #expect((original.likeCount, original.repostCount, original.replyCount) == (3, 2, 1))
        #expect(timeline.user(id: "1") == User(id: "1", handle: "alice@example.social", name: "Alice",
                                                url: "https://example.social/@alice", isBot: true))
        #expect(timeline.user(id: "2")?.name == "bob")
    }

    /// Mastodon 4.3 sends HTML in `spoiler_text`; a plain one keeps its `<` that starts no tag.
    @Test func aContentWarningCarryingHTMLIsReadAsTextAndAPlainOneStaysAsWritten() throws {
        func status(_ id: String, spoiler: String) -> String {
            #"{"id":"\#(id)","created_at":"2026-11-20T10:00:00Z","content":"<p>x</p>","spoiler_text":"\#(spoiler)","account":{"id":"1","acct":"a"}}"#
        }
        let json = "[" + status("1", spoiler: "Spoilers for <i>Dune</i> &amp; its ending") + "," + status("2", spoiler: "I <3 cats & dogs") + "]"
        let timeline = try MastodonDecoder().decode(Array(json.utf8))
        #expect(timeline.message(id: "1")?.contentWarning == "Spoilers for Dune & its ending")
        #expect(timeline.message(id: "2")?.contentWarning == "I <3 cats & dogs")
    }

    @Test func aMastodon4Point4QuoteIsLinkedOnlyWhenAccepted() throws {
        func status(_ id: String, quote: String) -> String {
            #"{"id":"\#(id)","created_at":"2026-11-20T10:00:00Z","content":"<p>q</p>","account":{"id":"1","acct":"a","display_name":"A"},"quote":\#(quote)}"#
        }
        let quoted = #"{"id":"9","created_at":"2026-11-19T10:00:00Z","content":"<p>quoted</p>","account":{"id":"3","acct":"c","display_name":"C"}}"#
        let json = "[" + [
            status("1", quote: #"{"state":"accepted","quoted_status":\#(quoted)}"#),
            status("2", quote: #"{"state":"accepted","quoted_status_id":"8"}"#),
            status("3", quote: #"{"state":"revoked","quoted_status":null}"#),
            status("4", quote: #"{"state":"some_future_state","quoted_status":null}"#),
        ].joined(separator: ",") + "]"
        let timeline = try MastodonDecoder().decode(Array(json.utf8))
        #expect(timeline.message(id: "1")?.quoteOfID == "9")
        #expect(timeline.message(id: "9")?.text == "quoted")
        #expect(timeline.message(id: "2")?.quoteOfID == "8")
        #expect(timeline.message(id: "3")?.quoteOfID == nil)
        #expect(timeline.message(id: "4")?.quoteOfID == nil)
    }

    @Test func aWrongTypeNamesTheFileLineColumnAndJSONPath() throws {
        let json = """
            [
              {"id":"1","created_at":"2026-11-20T10:00:00Z","content":"","account":{"id":"1","acct":"a"},
               "favourites_count":"many"}
            ]
            """
        #expect {
            try MastodonDecoder().decode(Array(json.utf8), sourceName: "home.json")
        } throws: { error in
            guard let error = error as? ImportError else { return false }
            return error.line == 3 && error.column == 23 && error.field == "[0].favourites_count"
                && error.description.hasPrefix("home.json:3:23: `[0].favourites_count` must be a non-negative integer")
        }
    }

    @Test func aTweetGivenAsMastodonIsRefusedWithAHint() throws {
        let json = #"[{"id_str":"1","text":"hi","user":{"id_str":"2","screen_name":"x"}}]"#
        #expect {
            try MastodonDecoder().decode(Array(json.utf8), sourceName: "t.json")
        } throws: { error in
            "\(error)".contains("--format twitter") && (error as? ImportError)?.field == "[0]"
        }
    }
}
