import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `follow`, `unfollow` and `following` (issue 27) against the loopback Mastodon and Bluesky
/// servers: the requests each network's API wants, the one line said, the list paged, and the
/// handles refused before any request.
@Suite struct FollowAccountCommandTests {
    static func follows(_ server: MastodonTestServer) throws -> [String] {
        try server.control("follows") as? [String] ?? []
    }

    @Test func mastodonFollowLooksUpOrSearchesFollowsListsAndUnfollows() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let me = "tester@127.0.0.1:\(server.port)"

        let followed = try scenario.timeline.run(["follow", "user1"])
        #expect(followed.status == 0, "\(followed.errors)")
        #expect(followed.output == "Followed @user1@127.0.0.1:\(server.port) (Generated User 1), as \(me).\n", "\(followed.output)")
        #expect(try server.requests().contains { ($0["method"] as? String) == "POST" && ($0["path"] as? String) == "/api/v1/accounts/101/follow" })
        #expect(try Self.follows(server) == ["user1"])

        // An account of another server that this one has not seen: lookup says 404, the search
        // with resolve=true fetches it.
        let remote = try scenario.timeline.run(["follow", "--json", "@faraway@remote.example"])
        #expect(remote.status == 0, "\(remote.errors)")
        #expect(remote.output.contains("\"action\":\"follow\",\"handle\":\"faraway@remote.example\",\"id\":\"900\""), "\(remote.output)")
        #expect(remote.output.contains("\"following\":true,\"requested\":false"), "\(remote.output)")
        let search = try #require(try server.requests().last { ($0["path"] as? String) == "/api/v2/search" })
        #expect((search["query"] as? String)?.contains("resolve=true") == true)
        #expect(try Self.follows(server) == ["faraway@remote.example", "user1"])

        // A locked account: the follow is a request, and the line says so.
        let locked = try scenario.timeline.run(["follow", "user5"])
        #expect(locked.status == 0 && locked.output.hasPrefix("Asked to follow @user5@"), "\(locked.output)")

        // Two more, then the list in pages of two: the Link header's max_id is a follow's ID.
        #expect(try scenario.timeline.run(["follow", "user2", "user4"]).status == 0)
        _ = try server.control("settings", ["following_page_size": 2])
        let listed = try scenario.timeline.run(["following"])
        #expect(listed.status == 0, "\(listed.errors)")
        let handles = listed.output.split(separator: "\n").map { String($0.split(separator: " ")[0]) }
        #expect(handles == ["@user4@127.0.0.1:\(server.port)", "@user2@127.0.0.1:\(server.port)",
                            "@faraway@remote.example", "@user1@127.0.0.1:\(server.port)"], "\(listed.output)")
        #expect(listed.output.contains("@faraway@remote.example  Far Away\n"))
        let pages = try server.requests().filter { ($0["path"] as? String) == "/api/v1/accounts/1/following" }
        #expect(pages.count == 3, "\(pages)")  // 2 + 2 + an empty page that ends it
        #expect((pages[1]["query"] as? String)?.contains("max_id=700") == true, "\(pages)")
        let limited = try scenario.timeline.run(["following", "-n", "3", "--json"])
        #expect(limited.output.split(separator: "\n").count == 3, "\(limited.output)")
        #expect(limited.output.hasPrefix("{\"handle\":\"user4@127.0.0.1:\(server.port)\",\"name\":\"Generated User 4\",\"id\":\"104\",\"account\":\"\(me)\"}\n"), "\(limited.output)")

        let undone = try scenario.timeline.run(["unfollow", "user1"])
        #expect(undone.status == 0, "\(undone.errors)")
        #expect(undone.output == "Unfollowed @user1@127.0.0.1:\(server.port) (Generated User 1), as \(me).\n", "\(undone.output)")
        #expect(try Self.follows(server) == ["user4", "user2", "faraway@remote.example"])
    }

    @Test func aHandleThatCannotBeOneOrIsUnknownIsRefusedNamingIt() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let before = try server.requests().count
        for bad in ["al ice", "user1@", "a/b@example.social", "user1@example.social&x=1", "evil\u{1B}[31m@example.social", "name.bsky.social", ""] {
            let refused = try scenario.timeline.run(["follow", bad])
            #expect(refused.status == 64, "\(bad): \(refused.errors)")
            #expect(!refused.errors.contains("\u{1B}"), "\(refused.errors)")
            if !bad.isEmpty {
                #expect(refused.errors.contains("is not a handle any logged-in account can follow: write it as user (an account of your server) or user@server.example"), "\(refused.errors)")
            }
            #expect(refused.output.isEmpty)
        }
        #expect(try server.requests().count == before, "a refused handle sent a request")

        let unknown = try scenario.timeline.run(["follow", "nosuchuser@nowhere.example"])
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("could not follow nosuchuser@nowhere.example") && unknown.errors.contains("no account @nosuchuser@nowhere.example is known"), "\(unknown.errors)")
        #expect(unknown.output.isEmpty)
        #expect(try Self.follows(server).isEmpty)
        #expect(!(try server.requests()).contains { ($0["method"] as? String) == "POST" })
    }

    /// A server lacking the lookup (Takahē's 404 page) still finds the handle through its search.
    @Test func aServerWithoutLookupIsSearchedInstead() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        _ = try server.control("settings", ["missing": ["/api/v1/accounts/lookup"]])
        let followed = try scenario.timeline.run(["follow", "user1"])
        #expect(followed.status == 0, "\(followed.errors)")
        #expect(try Self.follows(server) == ["user1"])
    }

    @Test func aServersNamesReachTheTerminalInert() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let followed = try scenario.timeline.run(["follow", "hostile@remote.example"])
        #expect(followed.status == 0, "\(followed.errors)")
        #expect(!followed.output.contains("\u{1B}") && !followed.output.contains("\u{07}"), "\(followed.output)")
        #expect(followed.output.contains("Evil"), "\(followed.output)")
        let listed = try scenario.timeline.run(["following"])
        #expect(!listed.output.contains("\u{1B}") && listed.output.contains("@hostile@remote.example  Evil"), "\(listed.output)")
    }

    @Test func blueskyFollowIsARecordDeletedByTheUnfollowAndNeverMadeTwice() throws {
        let server = try BlueskyTestServer.start(posts: 10)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let people = try #require(try server.state()["people"] as? [[String: String]])
        let did = try #require(people[1]["did"])

        let followed = try scenario.timeline.run(["follow", "@User1.loopback.test"])
        #expect(followed.status == 0, "\(followed.errors)")
        #expect(followed.output.hasPrefix("Followed @user1.loopback.test (Sky User 1), as "), "\(followed.output)")
        let records = { () throws -> [[String: Any]] in
            (try server.state()["created"] as? [[String: Any]] ?? []).filter { ($0["uri"] as? String)?.contains("/app.bsky.graph.follow/") == true }
        }
        let made = try records()
        #expect(made.count == 1)
        #expect((made.first?["record"] as? [String: Any])?["subject"] as? String == did)
        #expect((made.first?["record"] as? [String: Any])?["$type"] as? String == "app.bsky.graph.follow")

        let again = try scenario.timeline.run(["follow", did])
        #expect(again.status == 0 && again.output.hasPrefix("Already following @user1.loopback.test"), "\(again.output)")
        #expect(try records().count == 1)

        let listed = try scenario.timeline.run(["following", "--json"])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.hasPrefix("{\"handle\":\"user1.loopback.test\",\"name\":\"Sky User 1\",\"id\":\"\(did)\""), "\(listed.output)")
        #expect(listed.output.split(separator: "\n").count == 1)

        let unfollowed = try scenario.timeline.run(["unfollow", "user1.loopback.test"])
        #expect(unfollowed.status == 0 && unfollowed.output.hasPrefix("Unfollowed @user1.loopback.test"), "\(unfollowed.output)")
        let deleted = try server.state()["deleted"] as? [String] ?? []
        #expect(deleted == [try #require(made.first?["uri"] as? String)], "\(deleted)")
        let none = try scenario.timeline.run(["unfollow", "user1.loopback.test"])
        #expect(none.status == 0 && none.output.hasPrefix("Was not following @user1.loopback.test"), "\(none.output)")
        #expect((try server.state()["deleted"] as? [String] ?? []).count == 1)
        #expect(try scenario.timeline.run(["following"]).output == "No one is followed by \(BlueskyTestServer.handle).\n")

        let unknown = try scenario.timeline.run(["follow", "nobody.loopback.test"])
        #expect(unknown.status != 0)
        #expect(unknown.errors.contains("no Bluesky account is @nobody.loopback.test"), "\(unknown.errors)")
        let mastodonHandle = try scenario.timeline.run(["follow", "alice@example.social"])
        #expect(mastodonHandle.status == 64)
        #expect(mastodonHandle.errors.contains("write it as name.bsky.social (a handle) or did:plc:"), "\(mastodonHandle.errors)")
    }

    /// With a Mastodon and a Bluesky account, the handle's form says which follows; `--account`
    /// naming the other is refused before any request.
    @Test func theHandleChoosesTheAccountAmongNetworks() throws {
        let mastodon = try MastodonTestServer()
        let bluesky = try BlueskyTestServer.start(posts: 10)
        let scenario = try SyncCommandTests.loggedIn(to: mastodon)
        let login = try scenario.timeline.run(["login", "bluesky", BlueskyTestServer.handle, "--service", bluesky.baseURL, "--app-password-stdin"],
                                              input: Data((BlueskyTestServer.password + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        #expect(try scenario.timeline.run(["follow", "user2.loopback.test"]).status == 0)
        #expect(try scenario.timeline.run(["follow", "user2"]).status == 0)
        #expect(try Self.follows(mastodon) == ["user2"])
        #expect((try bluesky.state()["follows"] as? [String])?.count == 1)
        let wrong = try scenario.timeline.run(["follow", "--account", "tester@127.0.0.1:\(mastodon.port)", "user3.loopback.test"])
        #expect(wrong.status == 64)
        #expect(wrong.errors.contains("is not a handle tester@127.0.0.1:\(mastodon.port) can follow (a Mastodon handle is user"), "\(wrong.errors)")
        let both = try scenario.timeline.run(["following"])
        #expect(both.output.contains("@user2@127.0.0.1:\(mastodon.port)") && both.output.contains("@user2.loopback.test"), "\(both.output)")
    }
}
