import Foundation
import Testing
import TimelineKit

@Suite struct TwitterDecoderTests {
    @Test func theHomeTimelineHasTwentyTweetsOfWhichFourteenAreRetweetsWithTheirOriginals() throws {
        let json = try JSONSerialization.jsonObject(with: Data(RealData.bytes("python-twitter/get_home_timeline.json"))) as! [[String: Any]]
        let topLevelIDs = json.map { $0["id_str"] as! String }
        let timeline = try RealData.twitter("python-twitter/get_home_timeline.json")
        let tweets = topLevelIDs.compactMap { timeline.message(id: $0) }
        #expect(tweets.count == 20)
        #expect(tweets.filter { $0.repostOfID != nil }.count == 14)
        #expect(Set(tweets.map(\.authorID)).count == 2)
        // 20 tweets, 14 originals of retweets and one quoted tweet.
        #expect(timeline.messages.count == 35)

        let retweet = try #require(timeline.message(id: "674674925823787008"))
        #expect(retweet.text == "")
        #expect(retweet.repostOfID == "674659346127679488")
        #expect(timeline.user(id: retweet.authorID)?.handle == "__jcbl__")
        let original = try #require(timeline.message(id: "674659346127679488"))
        #expect(timeline.user(id: original.authorID)?.handle == "pattymo")
        #expect(original.text == "I could watch this for hours and I might https://t.co/rIgO3E2mqI")
        #expect(original.attachments.first?.kind == "gifv")

        let quoting = try #require(timeline.message(id: "668245508411006977"))
        #expect(quoting.quoteOfID == "668239849581903872")
        #expect(timeline.user(id: try #require(timeline.message(id: "668239849581903872")).authorID)?.handle == "maggieNYT")

        let own = try #require(timeline.message(id: "671292317123387396"))
        #expect(own.text == "#python is cool")
        #expect(own.createdAt == RealData.date("2015-11-30T11:38:55Z"))
        #expect(own.url == "https://twitter.com/notinourselves/status/671292317123387396")
        #expect(timeline.user(id: own.authorID)?.url == "https://twitter.com/notinourselves")
    }

    @Test func theOldMinimalSchemaImportsWithIntegerIDs() throws {
        let timeline = try RealData.twitter("python-twitter/friends_timeline-kesuke.json")
        #expect(timeline.messages.count == 20)
        #expect(timeline.users.count == 2)
        let tweet = try #require(timeline.message(id: "89512102"))
        #expect(tweet.text == "Моё судно на воздушной подушке полно угрей")
        #expect(tweet.authorID == "718443")
        #expect(timeline.user(id: "718443")?.handle == "kesuke")
        #expect(timeline.user(id: "718443")?.name == "Kesuke Miyagi")
        #expect(tweet.createdAt == RealData.date(milliseconds: 1_180_894_529_000))  // Sun Jun 03 18:15:29 +0000 2007
        #expect((tweet.likeCount, tweet.repostCount, tweet.replyCount) == (0, 0, 0))
    }

    @Test func extendedModeUsesFullTextAndTheMediaOfExtendedEntities() throws {
        let timeline = try RealData.twitter("python-twitter/extended_tweet_in_extended_mode.json")
        let tweet = try #require(timeline.message(id: "782737772490600448"))
        #expect(tweet.text == "has more details about these changes.  Thanks for making more expressive!writing requirements to python_twitt python_twitter.egg-info/SOURCE https://t.co/JWSPztfoyt")
        #expect(tweet.attachments == [TimelineKit.Attachment(kind: "image", url: "https://pbs.twimg.com/media/CtzX2fnXEAAMAjK.jpg")])
        #expect(timeline.user(id: "4012966701")?.handle == "notinourselves")
    }

    @Test func twitterTimesAndEntitiesAreReadByHand() throws {
        let json = #"[{"id":1,"id_str":"1","created_at":"Wed Oct 10 20:19:24 +0000 2018","text":"Fish &amp; chips &lt;3","user":{"id":5,"screen_name":"f","name":""},"favorite_count":4,"retweet_count":5,"reply_count":6,"in_reply_to_status_id_str":"0","in_reply_to_user_id_str":"9"},{"id_str":"2","created_at":"Wed Oct 10 22:19:24 +0200 2018","text":"x","user":{"id_str":"5","screen_name":"f"}}]"#
        let timeline = try TwitterDecoder().decode(Array(json.utf8))
        let tweet = try #require(timeline.message(id: "1"))
        #expect(tweet.text == "Fish & chips <3")
        #expect(tweet.createdAt == RealData.date(milliseconds: 1_539_202_764_000))
        #expect(timeline.message(id: "2")?.createdAt == tweet.createdAt)
        #expect((tweet.likeCount, tweet.repostCount, tweet.replyCount) == (4, 5, 6))
        #expect(tweet.replyToID == "0")
        #expect(tweet.replyToUserID == "9")
        #expect(timeline.user(id: "5")?.name == "f")
    }

    @Test func aBadTwitterTimeNamesTheFieldAndWhy() throws {
        let json = #"[{"id_str":"1","created_at":"Wed Feb 30 20:19:24 +0000 2018","text":"x","user":{"id_str":"5","screen_name":"f"}}]"#
        #expect {
            try TwitterDecoder().decode(Array(json.utf8), sourceName: "t.json")
        } throws: { error in
            (error as? ImportError)?.field == "[0].created_at" && "\(error)".contains("Feb 2018 has no day 30")
        }
    }

    @Test func v2PagesOnePerLineResolveAuthorsRetweetsQuotesAndReplies() throws {
        let page1 = #"{"data":[{"id":"30","author_id":"1","created_at":"2022-05-01T10:00:00.000Z","text":"RT @b: hello &amp; bye","referenced_tweets":[{"type":"retweeted","id":"20"}],"public_metrics":{"retweet_count":7,"reply_count":0,"like_count":0,"quote_count":0}},{"id":"31","author_id":"1","created_at":"2022-05-01T11:00:00Z","text":"@b agreed &gt; all","in_reply_to_user_id":"2","referenced_tweets":[{"type":"replied_to","id":"20"},{"type":"quoted","id":"21"}],"attachments":{"media_keys":["3_1"]},"public_metrics":{"retweet_count":1,"reply_count":2,"like_count":3,"quote_count":4}}],"includes":{"users":[{"id":"1","name":"Ann","username":"ann"},{"id":"2","name":"Bo","username":"b"}],"tweets":[{"id":"20","author_id":"2","created_at":"2022-04-30T10:00:00Z","text":"hello &amp; bye"},{"id":"21","author_id":"2","created_at":"2022-04-29T10:00:00Z","text":"quoted"}],"media":[{"media_key":"3_1","type":"photo","url":"https://pbs.twimg.com/media/x.jpg","alt_text":"a cat"}]},"meta":{"result_count":2}}"#
        let page2 = #"{"data":[{"id":"29","author_id":"2","created_at":"2022-04-30T11:00:00Z","text":"older","note_tweet":{"text":"older, but longer"}}],"includes":{"users":[{"id":"2","name":"Bo","username":"b"}]},"meta":{"result_count":1}}"#
        let timeline = try TwitterDecoder().decode(Array((page1 + "\n" + page2 + "\n").utf8))
        let retweet = try #require(timeline.message(id: "30"))
        #expect(retweet.repostOfID == "20")
        #expect(retweet.text == "")
        #expect(retweet.repostCount == 7)
        #expect(timeline.message(id: "20")?.text == "hello & bye")
        #expect(timeline.user(id: try #require(timeline.message(id: "20")).authorID)?.handle == "b")
        let reply = try #require(timeline.message(id: "31"))
        #expect(reply.replyToID == "20")
        #expect(reply.replyToUserID == "2")
        #expect(reply.quoteOfID == "21")
        #expect(reply.text == "@b agreed > all")
        #expect((reply.likeCount, reply.repostCount, reply.replyCount) == (3, 1, 2))
        #expect(reply.attachments == [TimelineKit.Attachment(kind: "image", url: "https://pbs.twimg.com/media/x.jpg", altText: "a cat")])
        #expect(timeline.message(id: "21")?.text == "quoted")
        #expect(timeline.message(id: "29")?.text == "older, but longer")
        #expect(timeline.users.map(\.handle).sorted() == ["ann", "b"])
    }

    @Test func aV2TweetWhoseAuthorIsNotIncludedSaysWhichExpansionIsMissing() throws {
        let page = #"{"data":[{"id":"1","author_id":"9","created_at":"2022-05-01T10:00:00Z","text":"x"}]}"#
        #expect {
            try TwitterDecoder().decode(Array(page.utf8), sourceName: "page.jsonl")
        } throws: { error in
            (error as? ImportError)?.field == "data[0].author_id" && "\(error)".contains("expansions=author_id")
        }
    }

    @Test func anArchiveTweetsFileReadsWithItsAssignmentAndStringCounts() throws {
        let tweets = try JSONSerialization.jsonObject(with: Data(RealData.bytes("python-twitter/friends_timeline-kesuke.json"))) as! [Any]
        let wrapped = try JSONSerialization.data(withJSONObject: tweets.map { ["tweet": $0] })
        let archive = Array("window.YTD.tweets.part0 = ".utf8) + Array(wrapped)
        let timeline = try TwitterDecoder().decode(archive)
        #expect(timeline.messages.count == 20)
        #expect(timeline.message(id: "89512102")?.text == "Моё судно на воздушной подушке полно угрей")

        let ownerless = #"window.YTD.tweets.part0 = [{"tweet":{"id_str":"7","created_at":"Wed Oct 10 20:19:24 +0000 2018","full_text":"mine","favorite_count":"12","retweet_count":"0"}}]"#
        let owner = User(id: "42", handle: "me", name: "Me")
        let owned = try TwitterDecoder(archiveOwner: owner).decode(Array(ownerless.utf8))
        #expect(owned.message(id: "7")?.authorID == "42")
        #expect(owned.message(id: "7")?.likeCount == 12)
        #expect(throws: ImportError.self) { try TwitterDecoder().decode(Array(ownerless.utf8)) }
    }
}
