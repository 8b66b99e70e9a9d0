import Foundation
import Testing
import TimelineKit

/// Issue 33, item 1: a number from a server, a file or a database written by another program
/// never crashes `timeline`. Each test runs the built binary as a person does; a trap ends it
/// with SIGILL (status 4 here, 132 in a shell) and Swift's "runtime failure" report, which
/// every test here refuses.
///
/// Serialized, and the syncs that wait out a server's retries run off Swift's cooperative pool
/// (`runOffThePool`): held by seven rate-limited syncs at once, its two threads starved the
/// async tests beside them past their time limits once in CI.
@Suite(.serialized) struct HostileNumbersCommandTests {
    /// The poll of the issue: each option's votes above `Int64.max / 100`, where the percentage's
    /// `× 100` passed `Int64.max`.
    static func pollStatus(_ id: String, votes: String = "92233720368547759") -> String {
        #"{"id":"\#(id)","created_at":"2024-03-01T12:00:00.000Z","content":"<p>which?</p>","account":{"id":"2","username":"bob","acct":"bob","display_name":"Bob"},"#
            + #""poll":{"id":"7","expired":false,"multiple":false,"votes_count":\#(votes),"options":[{"title":"tabs","votes_count":\#(votes)},{"title":"spaces","votes_count":0}]}}"#
    }

    static func expectNoTrap(_ result: TimelineProcess.Result, _ what: String) {
        #expect(![4, 132].contains(result.status) && !result.errors.contains("runtime failure"), "\(what) trapped: \(result.errors)")
    }

    @Test func aPollWithVotesBeyondAHundredthOfInt64MaxIsImportedWithItsPercentages() throws {
        let scenario = Scenario()
        let file = scenario.directory + "/poll.json"
        try Data(("[" + Self.pollStatus("103") + "]").utf8).write(to: URL(fileURLWithPath: file))
        let imported = try scenario.timeline.run(["import", "--format", "mastodon", file])
        Self.expectNoTrap(imported, "import")
        #expect(imported.status == 0, "\(imported.errors)")
        let text = try scenario.sqlite("SELECT text FROM messages WHERE id = '103'")
        #expect(text.contains("Poll, 92233720368547759 votes, open:"), "\(text)")
        #expect(text.contains("- tabs: 92233720368547759 (100%)"), "\(text)")
        #expect(text.contains("- spaces: 0 (0%)"), "\(text)")
        let shown = try scenario.timeline.run(["show", "-n", "1"])
        #expect(shown.status == 0 && shown.output.contains("(100%)"), "\(shown.output)\(shown.errors)")
    }

    @Test func aSyncMeetingThatPollStoresThePageAndTheNextSyncGoesOn() async throws {
        let server = try HostileServer()
        let home = "[" + [Self.pollStatus("105"), HostileServerTests.status("104"),
                          Self.pollStatus("103", votes: "9223372036854775807")].joined(separator: ",") + "]"
        try server.routes(HostileServerTests.mastodonRoutes(home: home))
        let scenario = try HostileServerTests.loggedIn(to: server)
        let first = try await scenario.timeline.runOffThePool(["sync", "--json"])
        Self.expectNoTrap(first, "the first sync")
        #expect(first.status == 0, "\(first.errors)")
        let host = "127.0.0.1:\(server.port)"
        // The whole page is stored, the polls with their counts and shares.
        #expect(try scenario.sqlite("SELECT count(*) FROM messages WHERE id IN ('\(host)/105', '\(host)/104', '\(host)/103')") == "3")
        let poll = try scenario.sqlite("SELECT text FROM messages WHERE id = '\(host)/103'")
        #expect(poll.contains("- tabs: 9223372036854775807 (100%)"), "\(poll)")
        let second = try await scenario.timeline.runOffThePool(["sync", "--json"])
        Self.expectNoTrap(second, "the second sync")
        #expect(second.status == 0, "\(second.errors)")
    }

    @Test(arguments: [
        ["Retry-After": "9223372036854775807"],
        ["Retry-After": "99999999999999999999999"],
        ["Retry-After": "-9223372036854775808"],
        ["Retry-After": "1e308"],
        ["X-RateLimit-Remaining": "-9223372036854775808", "X-RateLimit-Reset": "9223372036854775807"],
        ["X-RateLimit-Remaining": "0", "X-RateLimit-Reset": "99999999999999999999"],
        ["RateLimit-Remaining": "0", "RateLimit-Reset": "-1"],
    ])
    func aRateLimitOfExtremeNumbersEndsTheSyncWithAReasonNotATrap(headers: [String: String]) async throws {
        let server = try HostileServer()
        var routes = HostileServerTests.mastodonRoutes()
        routes["/api/v1/timelines/home"] = HostileServer.answer(status: 429, headers: headers, body: #"{"error":"Too many requests"}"#)
        try server.routes(routes)
        let scenario = try HostileServerTests.loggedIn(to: server)
        let sync = try await scenario.timeline.runOffThePool(["sync", "--time-limit", "20s"])
        Self.expectNoTrap(sync, "a sync answered \(headers)")
        #expect(sync.status != 0, "a refused timeline is not a success: \(sync.output)")
        #expect(sync.errors.contains("rate limit") || sync.errors.contains("429") || sync.errors.contains("Too many"), "\(sync.errors)")
    }

    @Test(arguments: ["-9223372036854775808", "9223372036854775807", "-1"])
    func extremeNumbersWrittenIntoTheDatabaseByAnotherProgramArePaintedAndExported(value: String) throws {
        let scenario = Scenario()
        try scenario.importSample()
        try scenario.sqlite("UPDATE messages SET created_at = \(value), edited_at = \(value), like_count = \(value), repost_count = \(value), reply_count = \(value) WHERE rowid IN (SELECT rowid FROM messages ORDER BY created_at DESC LIMIT 3)")
        for arguments in [["show", "-n", "5"], ["show", "--json", "-n", "5"], ["export", "-"], ["search", "the"], ["doctor"]] {
            let result = try scenario.timeline.run(arguments)
            Self.expectNoTrap(result, arguments.joined(separator: " ") + " with \(value)")
        }
    }

    @Test(arguments: [["search", "the", "-n"], ["show", "--unread", "-n"], ["show", "-n"], ["show", "--json", "-n"]])
    func aLimitOfInt64MaxIsTakenAsNoLimit(arguments: [String]) throws {
        let scenario = Scenario()
        try scenario.importSample()
        let result = try scenario.timeline.run(arguments + ["9223372036854775807"])
        Self.expectNoTrap(result, arguments.joined(separator: " "))
        #expect(result.status == 0, "\(result.errors)")
    }

    @Test func aSnapshotLimitBeyondTheMaximumIsRefusedInOneLineAndTheSnapshotKept() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let before = scenario.fileBytes(scenario.snapshotPath)
        let result = try scenario.timeline.run(["snapshot", "--limit", "9223372036854775807"])
        Self.expectNoTrap(result, "snapshot --limit")
        #expect(result.status == 64, "\(result.errors)")
        #expect(result.errors.contains("--limit must be from 1 to 10000"), "\(result.errors)")
        #expect(scenario.fileBytes(scenario.snapshotPath) == before)
        let largest = try scenario.timeline.run(["snapshot", "--limit", "10000"])
        #expect(largest.status == 0, "\(largest.errors)")
        #expect(try scenario.timeline.run(["snapshot", "--check"]).status == 0)
    }
}
