import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// favourite, boost, bookmark and their undo, and `bookmarks` (issue 27), against the loopback
/// Mastodon and Bluesky servers: each action and its undo at the server, the state stored, the
/// next paint (Unicode, and ASCII under LANG=C), a refused action.
@Suite struct MessageActionCommandTests {
    /// The short reference and stored ID of a synced message someone else wrote that is not a
    /// repost: on Mastodon, the newest status of the server's home timeline.
    static func someoneElses(_ scenario: Scenario, own: String, serverID: String? = nil) throws -> (ref: String, id: String) {
        let lines = try scenario.timeline.run(["show", "-n", "200", "--format", "{ref} {id} {handle} {reposted_by}"]).output.split(separator: "\n")
        let line = try #require(lines.first { line in
            let parts = line.split(separator: " ", omittingEmptySubsequences: false)
            guard parts.count >= 4, parts[2] != Substring(own), parts[3].isEmpty else { return false }
            return serverID.map { parts[1].hasSuffix("/" + $0) } ?? true
        })
        let parts = line.split(separator: " ", omittingEmptySubsequences: false)
        return (String(parts[0]), String(parts[1]))
    }

    static func someoneElses(_ scenario: Scenario, on server: MastodonTestServer) throws -> (ref: String, id: String) {
        try someoneElses(scenario, own: "tester", serverID: try #require(try server.state()["newest_status_id"] as? String))
    }

    /// The painted entry of `id` (from its header's reference to the blank line after it).
    static func entry(_ scenario: Scenario, ref: String, environment: [String: String] = [:]) throws -> String {
        var timeline = scenario.timeline
        timeline.environment.merge(environment) { _, new in new }
        let shown = try timeline.run(["show", "-n", "60", "--color", "never", "--width", "100"]).output
        let entries = shown.components(separatedBy: "\n\n")
        return try #require(entries.first { $0.contains(" " + ref) }, "\(shown)")
    }

    @Test func mastodonFavouriteBoostAndBookmarkAreSentStoredPaintedAndUndone() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, id) = try Self.someoneElses(home, on: server)
        let serverID = String(id.split(separator: "/").last!)
        #expect(!(try Self.entry(home, ref: ref)).contains("favourited"))

        for (command, endpoint, painted, ascii) in [("favourite", "favourite", "♥ favourited", "[favourited]"),
                                                    ("boost", "reblog", "⟲ boosted", "[boosted]"),
                                                    ("bookmark", "bookmark", "🔖 bookmarked", "[bookmarked]")] {
            let done = try home.timeline.run([command, ref])
            #expect(done.status == 0, "\(done.errors)")
            #expect(done.output.hasSuffix(" as \(server.baseURL.split(separator: "/").last!)\n") || done.output.contains(" as "), "\(done.output)")
            #expect(done.output.split(separator: "\n").count == 1)
            let sent = try server.requests().filter { ($0["method"] as? String) == "POST" && ($0["path"] as? String) == "/api/v1/statuses/\(serverID)/\(endpoint)" }
            #expect(sent.count == 1, "\(command): \(sent)")
            // The snapshot was rewritten with it: the next show paints it from there.
            #expect(try home.timeline.run(["snapshot", "--check"]).status == 0)
            #expect(try Self.entry(home, ref: ref).contains(painted), "\(command)")
            #expect(try Self.entry(home, ref: ref, environment: ["LANG": "C"]).contains(ascii), "\(command)")
        }
        // The counts the server answered with are stored: the favourite and the boost count.
        let status = try #require(try server.status(serverID))
        #expect(status["favourited"] as? Bool == true && status["reblogged"] as? Bool == true && status["bookmarked"] as? Bool == true)
        let favourites = try #require(status["favourites_count"] as? Int)
        #expect(try Self.entry(home, ref: ref).contains("♥ \(favourites)"))

        let listed = try home.timeline.run(["bookmarks", "--json"])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.contains("\"id\":\"\(id)\""), "\(listed.output)")
        let painted = try home.timeline.run(["bookmarks", "--color", "never"])
        #expect(painted.output.contains("🔖 bookmarked"), "\(painted.output)")

        for (command, endpoint, painted) in [("unfavourite", "unfavourite", "favourited"), ("unboost", "unreblog", "boosted"),
                                             ("unbookmark", "unbookmark", "bookmarked")] {
            let undone = try home.timeline.run([command, "--json", serverID])
            #expect(undone.status == 0, "\(undone.errors)")
            #expect(undone.output.contains("\"action\":\"\(command)\",\"id\":\"\(id)\""), "\(undone.output)")
            #expect(try server.requests().contains { ($0["path"] as? String) == "/api/v1/statuses/\(serverID)/\(endpoint)" })
            #expect(!(try Self.entry(home, ref: ref)).contains(painted), "\(command)")
        }
        #expect(try Self.entry(home, ref: ref).contains("favourited") == false)
        let none = try home.timeline.run(["bookmarks", "--json"])
        #expect(none.status == 0 && none.output.isEmpty, "\(none.output)")
    }

    /// A status the sync fetches brings the account's favourite and bookmark of it, made in
    /// another app (the status's `favourited`, `bookmarked`).
    @Test func mastodonStateMadeElsewhereArrivesWithTheSyncThatFetchesTheStatus() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        _ = try server.control("statuses", ["count": 1])
        let serverID = try #require(try server.state()["newest_status_id"] as? String)
        for action in ["favourite", "bookmark"] { try server.act(action, on: serverID) }
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, _) = try Self.someoneElses(home, own: "tester", serverID: serverID)
        let entry = try Self.entry(home, ref: ref)
        #expect(entry.contains("♥ favourited") && entry.contains("🔖 bookmarked") && !entry.contains("boosted"), "\(entry)")
        // A sync that brings nothing new leaves the snapshot fresh.
        #expect(try home.timeline.run(["sync"]).status == 0)
        #expect(try home.timeline.run(["snapshot", "--check"]).status == 0)
    }

    @Test func aMastodonPostDeletedAtTheServerIsRefusedWithTheReasonAndNothingChanges() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let (ref, id) = try Self.someoneElses(home, on: server)
        let serverID = String(id.split(separator: "/").last!)
        _ = try server.control("delete", ["id": serverID])
        let refused = try home.timeline.run(["favourite", ref])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("404") && refused.errors.contains("Record not found"), "\(refused.errors)")
        #expect(refused.errors.contains("Nothing was changed here"))
        #expect(refused.output.isEmpty)
        #expect(!(try Self.entry(home, ref: ref)).contains("favourited"))
    }

    @Test func anUnknownReferenceOrAccountIsRefusedBeforeAnyRequest() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        let before = try server.requests().count
        let unknown = try home.timeline.run(["boost", "zzzzzz"])
        #expect(unknown.status == 65, "\(unknown.errors)")
        #expect(unknown.errors.contains("no stored message is \"zzzzzz\""))
        let (ref, _) = try Self.someoneElses(home, on: server)
        let wrongAccount = try home.timeline.run(["favourite", "--account", "nobody", ref])
        #expect(wrongAccount.status == 64)
        #expect(wrongAccount.errors.contains("no account is named \"nobody\""), "\(wrongAccount.errors)")
        #expect(try server.requests().count == before)
    }

    /// Issue 33: a reference with the form of a short reference names only a stored message, in
    /// `post --reply-to` and `--quote` as in `favourite`: `bbq` naming nothing was published as
    /// in_reply_to_id "bbq". A server's ID that only looks like one is given as `SERVER/ID` or
    /// as the post's web address.
    @Test func anUnknownShortReferenceIsRefusedByPostAsByEveryAction() throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        #expect(try home.timeline.run(["sync"]).status == 0)
        func statusPosts() throws -> [[String: Any]] {
            try server.requests().filter { ($0["method"] as? String) == "POST" && ($0["path"] as? String) == "/api/v1/statuses" }
        }
        let favourite = try home.timeline.run(["favourite", "bbqx"])
        #expect(favourite.status == 65, "\(favourite.errors)")
        for option in ["--reply-to", "--quote"] {
            let post = try home.timeline.run(["post", option, "bbqx", "Agreed!"])
            #expect(post.status == 65, "\(option): \(post.output) \(post.errors)")
            #expect(post.errors == favourite.errors, "\(option): \(post.errors)")
        }
        #expect(try statusPosts().isEmpty)

        let host = "127.0.0.1:\(server.port)"
        let explicit = try home.timeline.run(["post", "--reply-to", host + "/bbqx", "Agreed!"])
        #expect(explicit.status == 0, "\(explicit.errors)")
        #expect((try statusPosts().last?["json"] as? [String: Any])?["in_reply_to_id"] as? String == "bbqx")
        let address = try home.timeline.run(["post", "--reply-to", "http://\(host)/@someone/bbqz", "Agreed!"])
        #expect(address.status == 0, "\(address.errors)")
        #expect((try statusPosts().last?["json"] as? [String: Any])?["in_reply_to_id"] as? String == "bbqz")
    }

    @Test func blueskyLikeAndRepostAreRecordsDeletedByTheUndoAndBookmarksAreRefused() throws {
        let server = try BlueskyTestServer.start(posts: 30)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let (ref, uri) = try Self.someoneElses(scenario, own: BlueskyTestServer.handle)

        let liked = try scenario.timeline.run(["like", ref])
        #expect(liked.status == 0, "\(liked.errors)")
        #expect(liked.output.hasPrefix("Favourited \(ref) by @"), "\(liked.output)")
        let likes = try #require(try server.state()["created"] as? [[String: Any]]).filter { ($0["uri"] as? String)?.contains("/app.bsky.feed.like/") == true }
        #expect(likes.count == 1)
        let subject = (likes.first?["record"] as? [String: Any])?["subject"] as? [String: Any]
        #expect(subject?["uri"] as? String == uri && (subject?["cid"] as? String)?.isEmpty == false)
        #expect(try Self.entry(scenario, ref: ref).contains("♥ favourited"))
        // Liking again makes no second record: the server's viewer state says it is there.
        #expect(try scenario.timeline.run(["like", ref]).status == 0)
        #expect(try #require(try server.state()["created"] as? [[String: Any]]).filter { ($0["uri"] as? String)?.contains("/app.bsky.feed.like/") == true }.count == 1)

        let reposted = try scenario.timeline.run(["repost", "--json", ref])
        #expect(reposted.status == 0, "\(reposted.errors)")
        #expect(reposted.output.contains("\"favourited\":true,\"boosted\":true,\"bookmarked\":false"), "\(reposted.output)")
        #expect(try Self.entry(scenario, ref: ref, environment: ["LANG": "C"]).contains("[favourited]  [boosted]"))

        let likeURI = try #require(likes.first?["uri"] as? String)
        #expect(try scenario.timeline.run(["unlike", ref]).status == 0)
        #expect(try scenario.timeline.run(["unrepost", ref]).status == 0)
        let deleted = try server.state()["deleted"] as? [String] ?? []
        #expect(deleted.count == 2 && deleted.first == likeURI && deleted.last?.contains("/app.bsky.feed.repost/") == true, "\(deleted)")
        let entry = try Self.entry(scenario, ref: ref)
        #expect(!entry.contains("favourited") && !entry.contains("boosted"), "\(entry)")

        let bookmark = try scenario.timeline.run(["bookmark", ref])
        #expect(bookmark.status == 64)
        #expect(bookmark.errors.contains("Bluesky keeps no bookmarks"), "\(bookmark.errors)")
        let bookmarks = try scenario.timeline.run(["bookmarks"])
        #expect(bookmarks.status == 64)
        #expect(bookmarks.errors.contains("Bluesky keeps no bookmarks"), "\(bookmarks.errors)")
    }

    @Test func aBlueskyPostDeletedByItsAuthorIsRefusedAndNothingIsCreated() throws {
        let server = try BlueskyTestServer.start(posts: 30)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let (ref, uri) = try Self.someoneElses(scenario, own: BlueskyTestServer.handle)
        _ = try server.control("forget", ["uri": uri])
        let refused = try scenario.timeline.run(["like", ref])
        #expect(refused.status != 0)
        #expect(refused.errors.contains("is not there any more"), "\(refused.errors)")
        #expect((try server.state()["created"] as? [[String: Any]] ?? []).isEmpty)
        #expect(!(try Self.entry(scenario, ref: ref)).contains("favourited"))
    }
}

extension MastodonTestServer {
    /// The status `id` as the server now has it (`GET /api/v1/statuses/:id`), `nil` when gone.
    func status(_ id: String) throws -> [String: Any]? {
        var request = URLRequest(url: URL(string: "\(baseURL)/api/v1/statuses/\(id)")!)
        request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
        return try JSONSerialization.jsonObject(with: try Self.fetch(request)) as? [String: Any]
    }

    /// What another app of the account does: `POST /api/v1/statuses/:id/ACTION`.
    func act(_ action: String, on id: String) throws {
        var request = URLRequest(url: URL(string: "\(baseURL)/api/v1/statuses/\(id)/\(action)")!)
        request.httpMethod = "POST"
        request.setValue("Bearer \(Self.token)", forHTTPHeaderField: "Authorization")
        _ = try Self.fetch(request)
    }
}
