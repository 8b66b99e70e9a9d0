import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `mute`, `unmute`, `block`, `unblock` (accounts and words), `muted`, `blocked` and `report`
/// (issue 34) against the loopback Mastodon and Bluesky servers: the requests each API wants,
/// what is kept offline and sent by the next sync, and what leaves the next paint at once.
@Suite struct ModerationCommandTests {
    typealias Offline = OfflineActionCommandTests

    static func moderation(_ server: MastodonTestServer) throws -> [String: Any] {
        try server.control("moderation") as? [String: Any] ?? [:]
    }

    static func posts(_ server: MastodonTestServer, _ method: String, _ path: String) throws -> [[String: Any]] {
        try server.requests().filter { ($0["method"] as? String) == method && ($0["path"] as? String) == path }
    }

    // MARK: Mastodon

    @Test func mastodonMuteWithAnEndBlockAndTheirUndoAreDoneAtTheServerAndListed() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let me = "tester@127.0.0.1:\(server.port)"

        let muted = try scenario.timeline.run(["mute", "user1", "--for", "7d"])
        #expect(muted.status == 0, "\(muted.errors)")
        #expect(muted.output.hasPrefix("Muted @user1@127.0.0.1:\(server.port) (Generated User 1) until "), "\(muted.output)")
        #expect(muted.output.hasSuffix(", as \(me).\n"), "\(muted.output)")
        let mutes = try #require(Self.moderation(server)["mutes"] as? [[String: Any]])
        #expect(mutes.count == 1 && mutes.first?["acct"] as? String == "user1")
        #expect(mutes.first?["expires_at"] is String, "a mute with --for has an end at the server")
        #expect(try Self.posts(server, "POST", "/api/v1/accounts/101/mute").count == 1)

        let blocked = try scenario.timeline.run(["block", "--json", "@user4"])
        #expect(blocked.status == 0, "\(blocked.errors)")
        #expect(blocked.output.contains("\"action\":\"block\",\"handle\":\"user4@127.0.0.1:\(server.port)\",\"id\":\"127.0.0.1:\(server.port)/104\""), "\(blocked.output)")
        #expect(try Self.moderation(server)["blocks"] as? [String] == ["user4"])

        let mutedList = try scenario.timeline.run(["muted", "--json"])
        #expect(mutedList.status == 0, "\(mutedList.errors)")
        #expect(mutedList.output.contains("\"kind\":\"account\",\"handle\":\"user1@127.0.0.1:\(server.port)\""), "\(mutedList.output)")
        #expect(mutedList.output.contains("\"until\":\"20"), "\(mutedList.output)")
        let blockedList = try scenario.timeline.run(["blocked"])
        #expect(blockedList.output == "@user4@127.0.0.1:\(server.port)  Generated User 4\n", "\(blockedList.output)")

        #expect(try scenario.timeline.run(["unmute", "user1"]).status == 0)
        let unblocked = try scenario.timeline.run(["unblock", "user4"])
        #expect(unblocked.output.hasPrefix("Unblocked @user4@"), "\(unblocked.output)")
        #expect((try Self.moderation(server)["mutes"] as? [Any])?.isEmpty == true)
        #expect((try Self.moderation(server)["blocks"] as? [Any])?.isEmpty == true)
        #expect(try scenario.timeline.run(["blocked"]).output == "No account is blocked by \(me).\n")
    }

    @Test func aMastodonMuteOfflineIsKeptAndSentByTheNextSync() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        let kept = try home.timeline.run(["mute", "user1"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the mute of user1"), "\(kept.output)\(kept.errors)")
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        #expect(try home.timeline.run(["block", "user2"]).status == 0)
        #expect((try Self.moderation(server)["mutes"] as? [Any])?.isEmpty == true)

        let synced = try home.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 mute and 1 block that waited."), "\(synced.output)\(synced.errors)")
        #expect((try Self.moderation(server)["mutes"] as? [[String: Any]])?.first?["acct"] as? String == "user1")
        #expect(try Self.moderation(server)["blocks"] as? [String] == ["user2"])
        #expect(try Self.posts(server, "POST", "/api/v1/accounts/101/mute").count == 1)
    }

    @Test
    func aMutedAccountsStoredPostsLeaveShowAndTheSnapshotWithNoSync() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let before = try home.timeline.run(["show", "-n", "200", "--json"]).output
        let user1 = before.split(separator: "\n").filter { $0.contains("\"handle\":\"user1\"") }
        #expect(!user1.isEmpty, "the sample has posts by user1")
        // `snapshot --dump` writes its JSON with spaces around the colon.
        let handleInDump = "\"handle\" : \"user1\""
        #expect(try home.timeline.run(["snapshot", "--dump"]).output.contains(handleInDump), "the snapshot held user1's posts")
        // Offline: the mute waits for the server, and the posts are gone from the next paint.
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        let kept = try home.timeline.run(["mute", "user1"])
        #expect(kept.status == 0 && kept.output.contains("Its stored posts are hidden already."), "\(kept.output)\(kept.errors)")
        let requestsBefore = try server.requests().count
        let after = try home.timeline.run(["show", "-n", "200", "--json"]).output
        #expect(!after.contains("\"handle\":\"user1\""), "\(after.prefix(400))")
        let painted = try home.timeline.run(["show", "-n", "200", "--color", "never"]).output
        #expect(!painted.contains("@user1 "), "\(painted.prefix(400))")
        let dump = try home.timeline.run(["snapshot", "--dump"]).output
        #expect(!dump.isEmpty && !dump.contains(handleInDump), "the snapshot file holds no post of a muted account")
        #expect(try server.requests().count == requestsBefore, "show sent nothing")
        // Unmuted: they are back, at once.
        try server.control("faults", ["path": "/api/v1/accounts", "status": 503, "times": 2])
        #expect(try home.timeline.run(["unmute", "user1"]).status == 0)
        #expect(try home.timeline.run(["show", "-n", "200", "--json"]).output.contains("\"handle\":\"user1\""))
    }

    @Test
    func aMuteMadeElsewhereReachesTheRulesAtTheNextSync() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        #expect(try home.timeline.run(["show", "-n", "200", "--json"]).output.contains("\"handle\":\"user2\""))
        try server.control("mute", ["acct": "user2"])
        #expect(try home.timeline.run(["sync"]).status == 0)
        #expect(!(try home.timeline.run(["show", "-n", "200", "--json"]).output.contains("\"handle\":\"user2\"")))
        // Each sync read both lists (the second sync's mutes in two pages: the Link header
        // leads on until a page is empty).
        #expect(try Self.posts(server, "GET", "/api/v1/mutes").count == 3)
        #expect(try Self.posts(server, "GET", "/api/v1/blocks").count == 2)
    }

    @Test func theMutesListIsPagedAndBounded() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        try server.control("mute", ["count": 90])
        let listed = try home.timeline.run(["muted", "--json"])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.split(separator: "\n").filter { $0.contains("\"kind\":\"account\"") }.count == 90)
        // 80 and 10, then the empty page the last Link header leads to.
        #expect(try Self.posts(server, "GET", "/api/v1/mutes").count == 3)
        let bounded = try home.timeline.run(["muted", "-n", "10"])
        #expect(bounded.output.contains("(the first 10 accounts; -n says how many)"), "\(bounded.output)")
    }

    @Test func aMastodonMutedWordIsAFilterOfItsOwnAndItsUnmuteDeletesIt() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let muted = try home.timeline.run(["mute", "--word", "spoilers", "--for", "2w"])
        #expect(muted.status == 0 && muted.output.hasPrefix("Muted the word \u{201C}spoilers\u{201D} until "), "\(muted.output)\(muted.errors)")
        let filters = try #require(Self.moderation(server)["filters"] as? [[String: Any]])
        #expect(filters.count == 1)
        let filter = try #require(filters.first)
        #expect(filter["title"] as? String == "spoilers")
        #expect(filter["context"] as? [String] == ["home", "notifications", "public", "thread"])
        #expect(filter["filter_action"] as? String == "hide")
        #expect(filter["expires_at"] is String)
        let keywords = try #require(filter["keywords"] as? [[String: Any]])
        #expect(keywords.count == 1 && keywords[0]["keyword"] as? String == "spoilers" && keywords[0]["whole_word"] as? Bool == true)
        // Again: the filter is found, none is added.
        let again = try home.timeline.run(["mute", "--word", "Spoilers"])
        #expect(again.output.hasPrefix("The word \u{201C}Spoilers\u{201D} was muted already"), "\(again.output)")
        #expect((try Self.moderation(server)["filters"] as? [Any])?.count == 1)
        let listed = try home.timeline.run(["muted"])
        #expect(listed.output.contains("Muted words:\n  spoilers  (until "), "\(listed.output)")

        let unmuted = try home.timeline.run(["unmute", "--word", "spoilers"])
        #expect(unmuted.status == 0 && unmuted.output.hasPrefix("Unmuted the word"), "\(unmuted.output)\(unmuted.errors)")
        #expect((try Self.moderation(server)["filters"] as? [Any])?.isEmpty == true)
        #expect(try Self.posts(server, "DELETE", "/api/v2/filters/1").count == 1)
    }

    @Test func aMastodonReportSendsTheAccountThePostTheCategoryAndTheComment() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let newest = try #require(try OfflineChangeCommandTests.statusIDs(server).first)
        let reported = try home.timeline.run(["report", newest, "--reason", "spam", "--comment", "Selling things in every reply"])
        #expect(reported.status == 0, "\(reported.errors)")
        #expect(reported.output.hasPrefix("Reported "), "\(reported.output)")
        let reports = try #require(Self.moderation(server)["reports"] as? [[String: Any]])
        let body = try #require(reports.first?["body"] as? [String: Any])
        let status = try #require(try OfflineChangeCommandTests.status(server, newest))
        #expect(body["account_id"] as? String == (status["account"] as? [String: Any])?["id"] as? String)
        #expect(body["status_ids"] as? [String] == [newest])
        #expect(body["category"] as? String == "spam")
        #expect(body["comment"] as? String == "Selling things in every reply")
        #expect(body["forward"] as? Bool == false)

        // Offline: said plainly, nothing kept.
        try server.control("faults", ["path": "/api/v1/reports", "status": 503, "times": 2])
        let offline = try home.timeline.run(["report", newest])
        #expect(offline.status == 69, "\(offline.errors)")
        #expect(offline.errors.contains("a report needs the server") && offline.errors.contains("Nothing was kept"), "\(offline.errors)")
        #expect((try Self.moderation(server)["reports"] as? [Any])?.count == 1)

        let bad = try home.timeline.run(["report", newest, "--reason", "rude"])
        #expect(bad.status == 64 && bad.errors.contains("is not one of spam, violation, other"), "\(bad.errors)")
    }

    @Test func badWordsAndDurationsAreRefusedBeforeAnyRequest() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let duration = try home.timeline.run(["mute", "user1", "--for", "soon"])
        #expect(duration.status == 64 && duration.errors.contains("--for \u{201C}soon\u{201D} is not a duration") || duration.errors.contains("is not a duration"), "\(duration.errors)")
        let empty = try home.timeline.run(["mute", "--word", " "])
        #expect(empty.status == 64 && empty.errors.contains("--word is empty"), "\(empty.errors)")
        let line = try home.timeline.run(["mute", "--word", "a\nb"])
        #expect(line.status == 64 && line.errors.contains("line break"), "\(line.errors)")
        let handle = try home.timeline.run(["block", "not a handle!"])
        #expect(handle.status == 64, "\(handle.errors)")
        #expect(try server.requests().filter { ($0["method"] as? String) == "POST" }.isEmpty)
    }

    // MARK: Bluesky

    @Test func blueskyMuteBlockAndTheirUndoAreDoneAtTheServer() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let muted = try scenario.timeline.run(["mute", "user1.loopback.test"])
        #expect(muted.status == 0 && muted.output.hasPrefix("Muted @user1.loopback.test (Sky User 1)"), "\(muted.output)\(muted.errors)")
        #expect(try Self.moderation(server)["mutes"] as? [String] == [BlueskyTestServer.user1DID])
        let again = try scenario.timeline.run(["mute", "user1.loopback.test"])
        #expect(again.output.hasPrefix("@user1.loopback.test (Sky User 1) was muted already"), "\(again.output)")
        #expect(try Offline.calls(server, "app.bsky.graph.muteActor").count == 1)

        let timed = try scenario.timeline.run(["mute", "user2.loopback.test", "--for", "1d"])
        #expect(timed.status == 64 && timed.errors.contains("Bluesky keeps no end for a mute of an account"), "\(timed.errors)")

        let blocked = try scenario.timeline.run(["block", BlueskyTestServer.user1DID])
        #expect(blocked.status == 0, "\(blocked.errors)")
        let blocks = try #require(Self.moderation(server)["blocks"] as? [[String: Any]])
        #expect(blocks.count == 1 && blocks[0]["did"] as? String == BlueskyTestServer.user1DID)
        let put = try #require(try Offline.calls(server, "com.atproto.repo.putRecord").last?["body"] as? [String: Any])
        #expect(put["collection"] as? String == "app.bsky.graph.block" && put["rkey"] is String)
        let record = try #require(put["record"] as? [String: Any])
        #expect(record["$type"] as? String == "app.bsky.graph.block" && record["subject"] as? String == BlueskyTestServer.user1DID)

        let lists = try scenario.timeline.run(["blocked", "--json"])
        #expect(lists.output.contains("\"handle\":\"user1.loopback.test\""), "\(lists.output)")

        #expect(try scenario.timeline.run(["unmute", "user1.loopback.test"]).status == 0)
        #expect((try Self.moderation(server)["mutes"] as? [Any])?.isEmpty == true)
        let unblocked = try scenario.timeline.run(["unblock", "user1.loopback.test"])
        #expect(unblocked.status == 0, "\(unblocked.errors)")
        #expect((try Self.moderation(server)["blocks"] as? [Any])?.isEmpty == true)
        let deleted = try #require(try Offline.calls(server, "com.atproto.repo.deleteRecord").last?["body"] as? [String: Any])
        #expect(deleted["rkey"] as? String == put["rkey"] as? String, "the unblock deletes the record the block made")
    }

    @Test func aBlueskyBlockOfflineIsSentByTheNextSyncUnderItsRecordKey() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        try server.control("faults", ["nsid": "com.atproto.repo.putRecord", "status": 503, "times": 2])
        let kept = try scenario.timeline.run(["block", "user2.loopback.test"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the block of user2.loopback.test"), "\(kept.output)\(kept.errors)")
        #expect((try Self.moderation(server)["blocks"] as? [Any])?.isEmpty == true)
        let synced = try scenario.timeline.run(["sync"])
        #expect(synced.status == 0 && synced.output.contains("; sent 1 block that waited."), "\(synced.output)\(synced.errors)")
        #expect((try Self.moderation(server)["blocks"] as? [Any])?.count == 1)
        let keys = Set(try Offline.calls(server, "com.atproto.repo.putRecord").compactMap { ($0["body"] as? [String: Any])?["rkey"] as? String })
        #expect(keys.count == 1, "every try wrote the same record")
    }

    /// The preferences as a server might write them: spaces, an unknown `$type`, a muted word
    /// already there, the keys in an unusual order.
    static let preferences = #"{"preferences": [ {"$type":"app.bsky.actor.defs#adultContentPref","enabled":false}, {"$type" : "app.bsky.actor.defs#savedFeedsPrefV2","items":[{"type":"timeline","value":"following","pinned":true,"id":"3l6ovcmm2vd2j"}]},{"$type":"app.bsky.actor.defs#mutedWordsPref","items":[ {"value":"old","targets":["content"],"id":"3kx","actorTarget":"all"} ],"extra":{"kept":"as is"}}, {"zeta":1,"$type":"app.bsky.unknown.future#somePref","nested":{"a":[1,2.50,"\u00e9"]}} ]}"#

    @Test func putPreferencesKeepsEveryOtherPreferenceByteForByte() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        try server.control("preferences", ["body": Self.preferences])
        let muted = try scenario.timeline.run(["mute", "--word", "#spoilers", "--for", "7d"])
        #expect(muted.status == 0, "\(muted.output)\(muted.errors)")
        let puts = try #require(Self.moderation(server)["put_preferences"] as? [String])
        #expect(puts.count == 1)
        #expect(try Offline.calls(server, "app.bsky.actor.getPreferences").count == 1)
        let sent = try #require(puts.first)
        // Every other preference exactly as read, the unknown one too.
        for kept in [#"{"$type":"app.bsky.actor.defs#adultContentPref","enabled":false}"#,
                     #"{"$type" : "app.bsky.actor.defs#savedFeedsPrefV2","items":[{"type":"timeline","value":"following","pinned":true,"id":"3l6ovcmm2vd2j"}]}"#,
                     #"{"zeta":1,"$type":"app.bsky.unknown.future#somePref","nested":{"a":[1,2.50,"\u00e9"]}}"#] {
            #expect(sent.contains(kept), "\(kept) not kept byte for byte in \(sent)")
        }
        // The muted words: the old one as read, the new one added, the preference's other keys kept.
        #expect(sent.contains(#"{"$type":"app.bsky.actor.defs#mutedWordsPref","items":[ {"value":"old","targets":["content"],"id":"3kx","actorTarget":"all"} ,{"value":"spoilers","targets":["content","tag"],"actorTarget":"all","id":""#), "\(sent)")
        #expect(sent.contains(#""expiresAt":""#) && sent.contains(#"],"extra":{"kept":"as is"}}"#), "\(sent)")
        let decoded = try #require(try JSONSerialization.jsonObject(with: Data(sent.utf8)) as? [String: Any])
        #expect((decoded["preferences"] as? [Any])?.count == 4)

        let listed = try scenario.timeline.run(["muted", "--json"])
        #expect(listed.output.contains("\"kind\":\"word\",\"word\":\"spoilers\""), "\(listed.output)")

        // Unmute: the word taken out, everything else as the server now answers it.
        let unmuted = try scenario.timeline.run(["unmute", "--word", "spoilers"])
        #expect(unmuted.status == 0, "\(unmuted.errors)")
        let after = try #require((Self.moderation(server)["put_preferences"] as? [String])?.last)
        #expect(!after.contains("spoilers") && after.contains("\"value\": \"old\"") && after.contains("app.bsky.unknown.future#somePref"), "\(after)")
    }

    @Test func aBlueskyReportNamesThePostByURIAndCID() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let first = try #require(try scenario.timeline.run(["show", "-n", "1", "--json"]).output.split(separator: "\n").first)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(first.utf8)) as? [String: Any])
        let id = try #require(object["id"] as? String)
        let reported = try scenario.timeline.run(["report", id, "--reason", "violation", "--comment", "Impersonation"])
        #expect(reported.status == 0, "\(reported.errors)")
        let body = try #require((Self.moderation(server)["reports"] as? [[String: Any]])?.first)
        #expect(body["reasonType"] as? String == "com.atproto.moderation.defs#reasonViolation")
        #expect(body["reason"] as? String == "Impersonation")
        let subject = try #require(body["subject"] as? [String: Any])
        #expect(subject["$type"] as? String == "com.atproto.repo.strongRef")
        #expect(subject["uri"] as? String == (object["repost_of"] as? String ?? id))
        #expect((subject["cid"] as? String)?.hasPrefix("bafyrei") == true)
        #expect(try Offline.calls(server, "app.bsky.feed.getPosts").count >= 1, "the CID is read, not stored")
    }
}
