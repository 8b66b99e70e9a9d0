import Foundation
import Testing

/// Issue 27: every endpoint an action of the issue talks to, met with each hostile answer a real
/// server or what stands before it can give (a 429 whose reset is an hour away, a 401 for a
/// revoked token, a body cut in half on every attempt, a body larger than any answer, a web page
/// where the API's JSON was asked for). Each is one line naming the server, a non-zero exit
/// that is not a crash, nothing half-written in the database (or in a tag's or a list's own)
/// and a snapshot that still matches it.
@Suite(.timeLimit(.minutes(5)))
struct HostileActionAnswersTests {
    /// One endpoint: the command that reaches it, and the requests (method and path prefix) the
    /// fault is put on.
    struct Endpoint: Sendable, CustomTestStringConvertible {
        var name: String
        var method: String
        var path: String
        var testDescription: String { name }
    }

    static let endpoints: [Endpoint] = [
        Endpoint(name: "follow (lookup)", method: "GET", path: "/api/v1/accounts/lookup"),
        Endpoint(name: "follow", method: "POST", path: "/api/v1/accounts/"),
        Endpoint(name: "thread (context)", method: "GET", path: "/api/v1/statuses/{focal}/context"),
        Endpoint(name: "tag", method: "GET", path: "/api/v1/timelines/tag/"),
        Endpoint(name: "list", method: "GET", path: "/api/v1/timelines/list/"),
        Endpoint(name: "lists", method: "GET", path: "/api/v1/lists"),
        Endpoint(name: "edit", method: "PUT", path: "/api/v1/statuses/"),
        Endpoint(name: "vote", method: "POST", path: "/api/v1/polls/"),
        Endpoint(name: "quote (instance)", method: "GET", path: "/api/v2/instance"),
        Endpoint(name: "quote", method: "POST", path: "/api/v1/statuses"),
        Endpoint(name: "bookmarks", method: "GET", path: "/api/v1/bookmarks"),
    ]

    /// The commands whose change goes through the outbox, kept when its server says "not now".
    static let outboxCommands: Set<String> = ["follow (lookup)", "follow", "edit", "vote", "quote (instance)", "quote"]

    /// The faults, each for every attempt the client makes (it retries a cut body four times).
    static var faults: [(name: String, fault: [String: Any])] { [
        ("a 429 with its reset an hour away", ["status": 429, "reset_in": 3600]),
        ("a 401 (token revoked)", ["status": 401]),
        ("a body cut in half", ["cut": true, "times": 8]),
        ("a 9 MB body", ["huge": 9_000_000]),
        ("a web page instead of JSON", ["html": true]),
    ] }

    /// What the database holds that an action could half-write.
    static func stored(_ scenario: Scenario) throws -> String {
        try scenario.sqlite("""
            SELECT id, text, coalesce(edited_at, ''), like_count FROM messages ORDER BY id;
            SELECT * FROM message_interactions ORDER BY 1, 2;
            SELECT count(*) FROM pending_actions;
            SELECT count(*) FROM users;
            """)
    }

    // One endpoint at a time: each starts a server and runs its command five times.
    @Test(.serialized, arguments: endpoints)
    func eachHostileAnswerIsOneLineANonZeroExitAndNothingHalfWritten(endpoint: Endpoint) async throws {
        let server = try MastodonTestServer(statuses: 20)
        try server.control("settings", ["api_versions": ["mastodon": 7]])
        let made = try #require(try server.control("thread", ["ancestors": 1, "replies": 1]) as? [String: Any])
        let focal = try #require(made["focal"] as? String)
        let ids = try #require(try server.state()["status_ids"] as? [String])
        let polled = ids[1], mine = ids[2]
        try server.control("set_status", ["id": polled, "fields": ["poll": EditAndVoteCommandTests.poll(id: "55")] as [String: Any]])
        try server.control("set_status", ["id": mine, "fields": ["mine": true] as [String: Any]])
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let host = "127.0.0.1:\(server.port)"

        let arguments: [String] = switch endpoint.name {
        case "follow (lookup)", "follow": ["follow", "user1"]
        case "thread (context)": ["thread", "\(host)/\(focal)"]
        case "tag": ["tag", "rust"]
        case "list": ["list", "42"]
        case "lists": ["lists"]
        case "edit": ["edit", "\(host)/\(mine)", "A new text"]
        case "vote": ["vote", "\(host)/\(polled)", "1"]
        case "quote (instance)", "quote": ["post", "--quote", "\(host)/\(focal)", "A quote"]
        default: ["bookmarks"]
        }
        for (name, fault) in Self.faults {
            let before = try Self.stored(scenario)
            var placed = fault
            placed["path"] = endpoint.path.replacingOccurrences(of: "{focal}", with: focal)
            placed["method"] = endpoint.method
            try server.control("faults", ["clear": true])
            try server.control("faults", placed)
            // Seconds at times (a cut body is retried for 7 s): off the cooperative pool.
            let answer = try await scenario.timeline.runOffThePool(arguments)
            try server.control("faults", ["clear": true])
            if endpoint.name == "follow (lookup)", fault["html"] != nil {
                // A server without the lookup endpoint is asked through its search instead
                // (older servers): the follow is made, and says so.
                #expect(answer.status == 0 && answer.output.contains("user1@"), "\(answer.output) \(answer.errors)")
                #expect(try server.requests().contains { ($0["path"] as? String) == "/api/v2/search" })
                continue
            }

            // A change of the outbox (issue 27, offline) that met a server saying "not now" (a
            // 429, a body cut on every try: it may have been done) is kept for the next sync: one
            // line on standard output naming the server, exit 0; one the login must be renewed
            // for, or whose answer could not be taken in (too large), is kept too (its exit status,
            // one line on standard error saying it is kept). Kept is not half-written:
            // the outbox holds it (a post's stand-in beside it), and is emptied for the next fault.
            let waiting = try scenario.sqlite("SELECT count(*) FROM pending_actions WHERE payload IS NOT NULL")
            if Self.outboxCommands.contains(endpoint.name) {
                let kept = answer.status == 0 || answer.errors.contains("It is kept, and the first `timeline sync` after that is put right sends it.")
                #expect(waiting == (kept ? "1" : "0"), "\(name): exit \(answer.status), \(waiting) waiting: \(answer.errors)")
                // A waiting post is taken back as a person would (nothing is sent for it).
                for id in try scenario.sqlite("SELECT id FROM messages WHERE id LIKE 'outbox:%'").split(separator: "\n") {
                    #expect(try scenario.timeline.run(["delete", "--yes", String(id)]).status == 0)
                }
                _ = try scenario.sqlite("DELETE FROM pending_actions WHERE payload IS NOT NULL")
            } else {
                #expect(waiting == "0", "\(name)")
            }
            if Self.outboxCommands.contains(endpoint.name), answer.status == 0 {
                #expect(answer.output.hasPrefix("Not sent yet: ") && answer.output.split(separator: "\n").count == 1, "\(name): \(answer.output)")
                #expect(answer.output.contains(host) && answer.errors.isEmpty, "\(name): \(answer.output) \(answer.errors)")
                #expect(try Self.stored(scenario) == before, "\(name)")
                continue
            }

            // A status of ours (1, or 64 to 78), never a signal's (a crash).
            #expect(answer.status == 1 || (64 ... 78).contains(answer.status), "\(name): exit \(answer.status): \(answer.errors)")
            #expect(!answer.errors.contains("Fatal error"), "\(name): \(answer.errors)")
            #expect(answer.errors.split(separator: "\n").count == 1, "\(name): \(answer.errors)")
            #expect(answer.errors.contains(host), "\(name): \(answer.errors)")
            #expect(!answer.errors.contains("<") && !answer.errors.contains("xxxx"), "\(name): \(answer.errors)")
            #expect(try Self.stored(scenario) == before, "\(name)")
            let snapshot = try scenario.timeline.run(["snapshot", "--check"])
            #expect(snapshot.status == 0, "\(name): \(snapshot.output) \(snapshot.errors)")
            // A tag's or a list's own database keeps nothing from the failure.
            let kept = try FileManager.default.contentsOfDirectory(atPath: scenario.directory)
                .filter { ($0.hasPrefix("timeline.list-") || $0.hasPrefix("timeline.tag-")) && $0.hasSuffix(".sqlite") }
            for file in kept {
                let shown = try scenario.timeline.run(["--db", scenario.directory + "/" + file, "show", "-n", "5", "--format", "{id}"])
                #expect(shown.output.isEmpty, "\(name): \(file) holds \(shown.output)")
            }
        }
        if endpoint.name == "quote" {
            // Each refused post was refused before it was stored; none is left half-made.
            #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE text = 'A quote'") == "0")
        }
    }
}
