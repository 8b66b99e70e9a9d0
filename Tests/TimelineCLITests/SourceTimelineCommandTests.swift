import Foundation
import Testing

/// `tag`, `list` and `lists` (issue 27) against the loopback Mastodon and Bluesky servers: the
/// endpoints each network has, the posts kept in a database of their own so that `show` does
/// not mix them into the home timeline, `--offline`, and refusals.
@Suite struct SourceTimelineCommandTests {
    static func calls(_ server: MastodonTestServer, path: String) throws -> [[String: Any]] {
        try server.requests().filter { ($0["path"] as? String) == path }
    }

    @Test func aMastodonHashtagIsFetchedKeptApartFromHomeAndShown() throws {
        let server = try MastodonTestServer(statuses: 800)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let me = "tester@127.0.0.1:\(server.port)"
        let fetched = try scenario.timeline.run(["tag", "#Rust", "-n", "50", "--color", "never"])
        #expect(fetched.status == 0, "\(fetched.errors)")
        #expect(fetched.errors == "timeline: fetched 50 posts of #Rust as \(me).\n", "\(fetched.errors)")
        #expect(fetched.output.contains("#rust"), "\(fetched.output)")
        let pages = try Self.calls(server, path: "/api/v1/timelines/tag/Rust")
        #expect(pages.count == 2, "\(pages)")   // 40, then 10 below the first page's max_id
        #expect((pages.last?["query"] as? String)?.contains("max_id=") == true)
        // Kept beside the main database, not in it: `show` does not mix them into home.
        let kept = scenario.directory + "/timeline.tag-rust.sqlite"
        #expect(FileManager.default.fileExists(atPath: kept))
        let home = try scenario.timeline.run(["show", "-n", "100", "--format", "{id}"])
        #expect(home.output.isEmpty, "\(home.output)")
        let json = try scenario.timeline.run(["tag", "rust", "--offline", "-n", "100", "--json"])
        #expect(json.status == 0 && json.errors.isEmpty, "\(json.errors)")
        #expect(json.output.split(separator: "\n").count == 50)
        #expect(try Self.calls(server, path: "/api/v1/timelines/tag/rust").isEmpty)
        // The kept database is a timeline like any: its messages can be acted on with --db.
        let other = try scenario.timeline.run(["--db", kept, "show", "-n", "1", "--format", "{ref}"])
        #expect(other.status == 0 && !other.output.isEmpty, "\(other.errors)")

        let bad = try scenario.timeline.run(["tag", "ru/st"])
        #expect(bad.status == 64 && bad.errors.contains("\"ru/st\" is not a hashtag"), "\(bad.errors)")
        for refused in ["../x", "a b", "", "#", "tag\u{1B}[2J"] {
            let answer = try scenario.timeline.run(["tag", refused])
            #expect(answer.status == 64 && !answer.errors.contains("\u{1B}"), "\(refused): \(answer.errors)")
        }

        // A hashtag in another script: sent percent-encoded, kept in a file named safely.
        let japanese = try scenario.timeline.run(["tag", "天気"])
        #expect(japanese.status == 0 && japanese.output == "No posts of #天気 are stored.\n", "\(japanese.output) \(japanese.errors)")
        #expect(try server.requests().contains { ($0["path"] as? String) == "/api/v1/timelines/tag/%E5%A4%A9%E6%B0%97" || ($0["path"] as? String) == "/api/v1/timelines/tag/天気" })
        #expect(FileManager.default.fileExists(atPath: scenario.directory + "/timeline.tag-%E5%A4%A9%E6%B0%97.sqlite"))
    }

    /// Issue 33: a hashtag's database is named within the 255 bytes a file name may hold,
    /// whatever the tag (30 Japanese letters wrote 270 and failed "File name too long" after the
    /// server was asked); a timeline kept under the name a tag had before is still found, and
    /// a main database whose name leaves no room is refused before anything is fetched.
    @Test func aLongHashtagInAnotherScriptIsKeptUnderABoundedName() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let long = "東京オリンピック開会式を見ながら皆で応援しよう頑張れ日本代表"
        let fetched = try scenario.timeline.run(["tag", long])
        #expect(fetched.status == 0, "\(fetched.errors)")
        let names = try FileManager.default.contentsOfDirectory(atPath: scenario.directory).filter { $0.hasPrefix("timeline.tag-") }
        #expect(names.filter { $0.hasSuffix(".sqlite") }.count == 1, "\(names)")
        for name in names { #expect(name.utf8.count <= 130 && name.hasPrefix("timeline.tag-%E6%9D%B1%E4%BA%AC"), "\(name)") }

        // 20 letters: 184 bytes written out, a name that fitted before; its timeline is found.
        let kept = "日本代表の皆さん頑張ってください応援してます"
        let former = scenario.directory + "/timeline.tag-" + kept.utf8.map { "%" + String($0, radix: 16, uppercase: true) }.joined() + ".sqlite"
        let lines = #"{"type":"user","id":"u1","handle":"alice","name":"Alice"}"# + "\n"
            + #"{"type":"message","id":"kept-1","author":"u1","text":"stored before","created_at":"2026-01-01T10:00:00Z"}"# + "\n"
        #expect(try scenario.timeline.run(["--db", former, "import", "-"], input: Data(lines.utf8)).status == 0)
        let offline = try scenario.timeline.run(["tag", kept, "--offline", "--json"])
        #expect(offline.status == 0 && offline.output.contains("\"id\":\"kept-1\""), "\(offline.output) \(offline.errors)")
        let refetched = try scenario.timeline.run(["tag", kept])
        #expect(refetched.status == 0, "\(refetched.errors)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scenario.directory).filter { $0.hasPrefix("timeline.tag-") && $0.hasSuffix(".sqlite") }.count == 2)

        // No room beside a main database named with 242 bytes: refused, the server not asked.
        var longMain = scenario.timeline
        longMain.environment["TIMELINE_DB"] = scenario.directory + "/" + String(repeating: "t", count: 235) + ".sqlite"
        let before = try Self.calls(server, path: "/api/v1/timelines/tag/rust").count
        let refused = try longMain.run(["tag", "rust"])
        #expect(refused.status == 64 && refused.errors.contains("a file name may hold"), "\(refused.errors)")
        #expect(try Self.calls(server, path: "/api/v1/timelines/tag/rust").count == before)
    }

    @Test func mastodonListsAndAListsTimeline() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let lists = try scenario.timeline.run(["lists"])
        #expect(lists.status == 0 && lists.output == "42  Friends\n", "\(lists.output) \(lists.errors)")
        let listed = try scenario.timeline.run(["list", "42", "--json"])
        #expect(listed.status == 0, "\(listed.errors)")
        let lines = listed.output.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines { #expect(line.contains("\"handle\":\"user1\"") || line.contains("\"handle\":\"user2\""), "\(line)") }
        #expect(try Self.calls(server, path: "/api/v1/timelines/list/42").count == 1)  // a short page is the end

        let unknown = try scenario.timeline.run(["list", "43"])
        #expect(unknown.status != 0, "\(unknown.output)")
        #expect(unknown.errors.contains("the list 43 could not be fetched") && unknown.errors.contains("404"), "\(unknown.errors)")
        let notAnID = try scenario.timeline.run(["list", "at://x"])
        #expect(notAnID.status == 64 && notAnID.errors.contains("is not the ID of a list"), "\(notAnID.errors)")
    }

    /// The first post `arguments` (a `tag` or `list` command) shows: its painted reference and ID.
    static func firstShown(_ scenario: Scenario, _ arguments: [String]) throws -> (ref: String, id: String) {
        let shown = try scenario.timeline.run(arguments + ["--json"])
        let line = try #require(shown.output.split(separator: "\n").first, "\(shown.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        return (try #require(object["ref"] as? String), try #require(object["id"] as? String))
    }

    /// Issue 27: a post of a hashtag's or a list's timeline (kept in its own database) is acted
    /// on by the reference its timeline painted, `rust:bkd`, with no --db: the bare `bkd` names
    /// another post in the main timeline. An action that cannot be sent waits in the tag's
    /// database, is counted by `accounts` and sent by the next sync.
    @Test func aPostOfATagOrAListIsActedOnByTheReferenceItsTimelinePainted() throws {
        let server = try MastodonTestServer(statuses: 120)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let (ref, id) = try Self.firstShown(scenario, ["tag", "rust", "-n", "3"])
        #expect(ref.hasPrefix("rust:"), "\(ref)")
        let bare = String(ref.dropFirst("rust:".count))
        let main = try scenario.timeline.run(["show", "-n", "200", "--format", "{ref} {id}"]).output
        #expect(main.contains("\n\(bare) ") && !main.contains("\n\(bare) \(id)\n"), "the main timeline's \(bare) is another post")
        let painted = try scenario.timeline.run(["tag", "rust", "--offline", "-n", "3", "--color", "never"]).output
        #expect(painted.contains("· \(ref)"), "\(painted)")

        let favourite = try scenario.timeline.run(["favourite", ref])
        #expect(favourite.status == 0, "\(favourite.errors)")
        #expect(favourite.output.hasPrefix("Favourited \(ref) as tester@"), "\(favourite.output)")
        let serverID = String(id.split(separator: "/").last!)
        #expect(try OfflineActionCommandTests.effects(server) == ["\(serverID) favourite"])
        // Stored where it was shown; the main timeline's `bkd` is untouched.
        #expect(try scenario.timeline.run(["tag", "rust", "--offline", "-n", "3", "--json"]).output.contains("\"favourited\":true"))
        let untouched = try scenario.timeline.run(["show", "-n", "200", "--json"]).output.split(separator: "\n").first { $0.contains("\"ref\":\"\(bare)\"") }
        #expect(untouched.map { !$0.contains("\"favourited\":true") } == true, "\(String(describing: untouched))")

        let opened = try scenario.timeline.run(["open", ref, "--print"])
        #expect(opened.status == 0 && opened.output.hasPrefix("http"), "\(opened.output) \(opened.errors)")
        let thread = try scenario.timeline.run(["thread", ref, "--offline", "--json"])
        #expect(thread.status == 0 && thread.output.contains("\"id\":\"\(id)\""), "\(thread.errors)")
        let reply = try scenario.timeline.run(["post", "--reply-to", ref, "--json", "About that"])
        #expect(reply.status == 0, "\(reply.errors)")
        let replies = try server.requests().filter { ($0["method"] as? String) == "POST" && ($0["path"] as? String) == "/api/v1/statuses" }
        #expect((replies.last?["json"] as? [String: Any])?["in_reply_to_id"] as? String == serverID)

        // A list's: `list-42:bkd`.
        let (listed, listedID) = try Self.firstShown(scenario, ["list", "42"])
        #expect(listed.hasPrefix("list-42:"), "\(listed)")
        #expect(try scenario.timeline.run(["bookmark", listed]).status == 0)
        #expect(try OfflineActionCommandTests.effects(server).last == "\(listedID.split(separator: "/").last!) bookmark")

        // Offline: kept in the tag's database, counted, and sent by the next sync.
        try server.control("faults", ["path": "/api/v1/statuses/\(serverID)/reblog", "status": 503, "times": 4])
        let kept = try scenario.timeline.run(["boost", ref])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: boost \(ref)"), "\(kept.output) \(kept.errors)")
        #expect(try scenario.timeline.run(["accounts", "--json"]).output.contains("\"pending_actions\":1"))
        let sync = try scenario.timeline.run(["sync", "--json"])
        #expect(sync.output.contains("\"actions\":{\"sent\":1,\"refused\":[],\"pending\":0}"), "\(sync.output)")
        #expect(try OfflineActionCommandTests.effects(server).last == "\(serverID) reblog")
        #expect(try scenario.timeline.run(["accounts", "--json"]).output.contains("\"pending_actions\":0"))

        // A tag never fetched here: said, nothing sent.
        let unknown = try scenario.timeline.run(["favourite", "swift:bcd"])
        #expect(unknown.status == 66 && unknown.errors.contains("`timeline tag swift` fetches its posts"), "\(unknown.errors)")
    }

    /// `delete` names a hashtag's post as every action does (`rust:bkd`): someone else's post
    /// is forgotten in the tag's database, the main timeline untouched; an unknown reference
    /// beside it deletes nothing.
    @Test func aPostOfATagIsDeletedHereByTheReferenceItsTimelinePainted() throws {
        let server = try MastodonTestServer(statuses: 120)
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let (ref, id) = try Self.firstShown(scenario, ["tag", "rust", "-n", "3"])
        func tagIDs() throws -> String {
            let shown = try scenario.timeline.run(["tag", "rust", "--offline", "-n", "200", "--json"])
            #expect(shown.status == 0, "\(shown.errors)")
            return try shown.output.split(separator: "\n").map { line in
                let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any]
                return (object?["id"] as? String ?? "") + "\n"
            }.joined()
        }
        let main = try scenario.timeline.run(["show", "-n", "200", "--format", "{id}"]).output
        #expect(try tagIDs().contains(id + "\n"))

        let mixed = try scenario.timeline.run(["delete", "--yes", ref, "no.such.server/1"])
        #expect(mixed.status == 65 && mixed.errors.contains("no.such.server/1"), "\(mixed.errors)")
        #expect(try tagIDs().contains(id + "\n"))
        let unknown = try scenario.timeline.run(["delete", "--yes", "rust:zzzz"])
        #expect(unknown.status == 65 && unknown.errors.contains("\"zzzz\"") && unknown.errors.contains("Nothing was sent"), "\(unknown.errors)")

        let deleted = try scenario.timeline.run(["delete", "--yes", "--json", ref])
        #expect(deleted.status == 0 && deleted.output == "{\"deleted\":1,\"deleted_at_server\":0}\n", "\(deleted.output) \(deleted.errors)")
        #expect(try !tagIDs().contains(id + "\n"))
        #expect(try scenario.timeline.run(["show", "-n", "200", "--format", "{id}"]).output == main)
        #expect(try server.requests().allSatisfy { ($0["method"] as? String) != "DELETE" })
    }

    @Test func blueskyTagListAndFeedGenerator() throws {
        let server = try BlueskyTestServer.start(posts: 30)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let tagged = try scenario.timeline.run(["tag", "coffee", "--json"])
        #expect(tagged.status == 0, "\(tagged.errors)")
        let lines = tagged.output.split(separator: "\n")
        #expect(!lines.isEmpty)
        for line in lines { #expect(line.contains("coffee and code"), "\(line)") }
        let search = try #require(try server.requests().first { ($0["nsid"] as? String) == "app.bsky.feed.searchPosts" })
        #expect((search["query"] as? String)?.contains("tag=coffee") == true, "\(search)")

        let lists = try scenario.timeline.run(["lists", "--json"])
        #expect(lists.status == 0, "\(lists.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lists.output.utf8)) as? [String: Any])
        let uri = try #require(object["id"] as? String)
        #expect(object["title"] as? String == "Sky Friends")
        let list = try scenario.timeline.run(["list", uri, "--json"])
        #expect(list.status == 0, "\(list.errors)")
        #expect(list.output.contains("user1.loopback.test") && !list.output.contains("user3.loopback.test"), "\(list.output)")
        let feed = try scenario.timeline.run(["list", "at://did:plc:abcdefghijklmnopqrstuvwx/app.bsky.feed.generator/whats-hot", "-n", "5", "--json"])
        #expect(feed.status == 0, "\(feed.errors)")
        #expect(feed.output.split(separator: "\n").count == 5)
        #expect(try server.requests().contains { ($0["nsid"] as? String) == "app.bsky.feed.getFeed" })
        // Nothing of it in the home timeline.
        #expect(try scenario.timeline.run(["show", "--format", "{id}"]).output.isEmpty)
    }
}
