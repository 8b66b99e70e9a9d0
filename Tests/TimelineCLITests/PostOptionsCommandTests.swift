import Foundation
import Testing
import TimelineKit

/// `post --language`, `--sensitive`, `--label`, `--poll`, `--at`/`--in` and `timeline
/// scheduled`/`unschedule` (issue 36) against the loopback servers: what each request carries,
/// and every refusal made before anything is sent or queued.
@Suite(.serialized) struct PostOptionsCommandTests {
    static func statusesSent(_ server: MastodonTestServer) throws -> [[String: Any]] {
        try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").compactMap { $0["json"] as? [String: Any] }
    }

    @Test func aPollIsSentWithItsOptionsLanguageSensitiveMediaAndADayWhenNoExpiryIsGiven() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let posted = try await home.timeline.runOffThePool(["post", "--poll", "Tabs", "--poll", "Spaces", "--language", "PT-br",
                                                            "--sensitive", "Tabs or spaces?"])
        #expect(posted.status == 0, "\(posted.errors)")
        let sent = try #require(try Self.statusesSent(server).last)
        #expect(sent["language"] as? String == "pt-BR")
        #expect(sent["sensitive"] as? Bool == true)
        let poll = try #require(sent["poll"] as? [String: Any])
        #expect(poll["options"] as? [String] == ["Tabs", "Spaces"])
        #expect(poll["expires_in"] as? Int == 86_400)
        #expect(poll["multiple"] as? Bool == false)
        // The server's limits were read first.
        #expect(try EditAndVoteCommandTests.sent(server, "GET", "/api/v2/instance").count == 1)

        let multiple = try await home.timeline.runOffThePool(["post", "--poll", "a", "--poll", "b", "--poll-expires", "3d", "--poll-multiple", "Pick"])
        #expect(multiple.status == 0, "\(multiple.errors)")
        let second = try #require(try Self.statusesSent(server).last?["poll"] as? [String: Any])
        #expect(second["expires_in"] as? Int == 3 * 86_400 && second["multiple"] as? Bool == true)
    }

    /// A poll whose server cannot be reached waits in the outbox and is published, with its
    /// options, expiry and language, by the next sync.
    @Test func aPollPostedOfflineIsPublishedWithItsOptionsByTheNextSync() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        try server.control("faults", ["path": "/api/v1/statuses", "status": 503, "times": 2])
        let kept = try await home.timeline.runOffThePool(["post", "--poll", "Yes", "--poll", "No", "--poll-expires", "12h",
                                                          "--poll-multiple", "--language", "fr", "--sensitive", "On the train?"])
        #expect(kept.status == 0 && kept.output.hasPrefix("Not sent yet: the post "), "\(kept.output) \(kept.errors)")
        #expect(try home.sqlite("SELECT count(*) FROM pending_actions") == "1")
        let synced = try await home.timeline.runOffThePool(["sync"])
        #expect(synced.status == 0 && synced.output.contains("sent 1 post that waited"), "\(synced.output) \(synced.errors)")
        let sent = try #require(try Self.statusesSent(server).last)
        let poll = try #require(sent["poll"] as? [String: Any])
        #expect(poll["options"] as? [String] == ["Yes", "No"] && poll["expires_in"] as? Int == 43_200 && poll["multiple"] as? Bool == true)
        #expect(sent["language"] as? String == "fr" && sent["sensitive"] as? Bool == true)
        #expect(try home.sqlite("SELECT count(*) FROM pending_actions") == "0")
    }

    @Test func whatIsWrongIsRefusedInOneLineWithNothingSentOrQueued() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let cases: [([String], String)] = [
            (["--poll", "a", "--poll", "b", "--poll", "c", "--poll", "d", "--poll", "e"], "at most 4 options (at 127.0.0.1:"),
            (["--poll", "only"], "at least 2 options"),
            (["--poll-expires", "1d"], "--poll-expires and --poll-multiple are for a poll"),
            (["--poll", "a", "--poll", "b", "--poll-expires", "soon"], "is not a duration"),
            (["--language", "english"], "is not a language code"),
            (["--label", "spoilers"], "is not a label: write sexual, nudity, porn or graphic-media"),
            (["--label", "porn"], "--label is Bluesky's"),
            (["--at", "2020-01-01 10:00"], "is in the past: nothing was posted"),
            (["--at", "next week"], "is not a time"),
            (["--in", "2m"], "less than 5 minutes"),
            (["--at", "2099-01-01 10:00", "--in", "1h"], "give one"),
        ]
        for (options, said) in cases {
            let refused = try await home.timeline.runOffThePool(["post"] + options + ["Text"])
            // The server's poll limits are the data's fault (65); the rest are usage (64).
            #expect(refused.status == (said.hasPrefix("at most 4") ? 65 : 64), "\(options): \(refused.status)")
            #expect(refused.errors.contains(said), "\(options): \(refused.errors)")
            #expect(refused.errors.split(separator: "\n").count == 1, "\(options): \(refused.errors)")
        }
        #expect(try Self.statusesSent(server).isEmpty)
        #expect(try home.sqlite("SELECT count(*) FROM pending_actions") == "0")
    }

    @Test func aScheduledPostIsListedAndCancelledAndNothingIsStoredForIt() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let scheduled = try await home.timeline.runOffThePool(["post", "--in", "2h", "--json", "Good morning"])
        #expect(scheduled.status == 0, "\(scheduled.errors)")
        #expect(scheduled.output.contains(#""scheduled_id":"901""#), "\(scheduled.output)")
        let sent = try #require(try Self.statusesSent(server).last)
        let at = try #require(sent["scheduled_at"] as? String)
        let when = try #require(ISO8601DateFormatter().date(from: String(at.prefix(19)) + "Z"))
        #expect(abs(when.timeIntervalSinceNow - 7_200) < 600)
        // No stand-in waits for it: it is not a message until the server publishes it.
        #expect(try home.sqlite("SELECT count(*) FROM messages WHERE id LIKE 'outbox:%'") == "0")
        #expect(try home.sqlite("SELECT count(*) FROM pending_actions") == "0")

        let listed = try await home.timeline.runOffThePool(["scheduled"])
        #expect(listed.status == 0, "\(listed.errors)")
        #expect(listed.output.hasPrefix("901  ") && listed.output.contains("Good morning"), "\(listed.output)")

        let cancelled = try await home.timeline.runOffThePool(["unschedule", "901"])
        #expect(cancelled.status == 0, "\(cancelled.errors)")
        #expect(try EditAndVoteCommandTests.sent(server, "DELETE", "/api/v1/scheduled_statuses/901").count == 1)
        let after = try await home.timeline.runOffThePool(["scheduled"])
        #expect(after.output.hasPrefix("No scheduled posts"), "\(after.output)")
        let again = try await home.timeline.runOffThePool(["unschedule", "901"])
        #expect(again.status != 0 && again.errors.contains("could not be cancelled"), "\(again.errors)")
    }

    /// Takahē takes `scheduled_at` and publishes at once: a server without the scheduled
    /// statuses endpoint is refused before the post is sent.
    @Test func aServerWithoutScheduledStatusesRefusesTheScheduleBeforeAnythingIsPosted() async throws {
        let server = try MastodonTestServer()
        try server.control("settings", ["missing": ["/api/v1/scheduled_statuses"]])
        let home = try SyncCommandTests.loggedIn(to: server)
        let refused = try await home.timeline.runOffThePool(["post", "--in", "1h", "Later"])
        #expect(refused.status == 69, "\(refused.errors)")
        #expect(refused.errors.contains("does not support scheduled posts"), "\(refused.errors)")
        #expect(try Self.statusesSent(server).isEmpty)
        #expect(try home.sqlite("SELECT count(*) FROM pending_actions") == "0")
        #expect(try home.sqlite("SELECT count(*) FROM messages WHERE id LIKE 'outbox:%'") == "0")
    }

    @Test func blueskyRefusesAPollAScheduleAndAWrittenWarningInOneLineAndLabelsASensitivePost() async throws {
        let server = try BlueskyTestServer.start(posts: 5)
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let created = { () throws -> [[String: Any]] in try server.state()["created"] as? [[String: Any]] ?? [] }
        for (options, said) in [(["--poll", "a", "--poll", "b"], "Bluesky posts have no polls"),
                                (["--in", "1h"], "Bluesky has no scheduled posts"),
                                (["--cw", "spoilers"], "no written content warning: --sensitive")] {
            let refused = try await scenario.timeline.runOffThePool(["post"] + options + ["Text"])
            #expect(refused.status != 0 && refused.errors.contains(said), "\(options): \(refused.errors)")
            #expect(refused.errors.split(separator: "\n").count == 1, "\(refused.errors)")
        }
        #expect(try created().isEmpty)
        let refusedList = try await scenario.timeline.runOffThePool(["scheduled"])
        #expect(refusedList.status != 0 && refusedList.errors.contains("Bluesky has no scheduled posts"), "\(refusedList.errors)")

        let posted = try await scenario.timeline.runOffThePool(["post", "--sensitive", "--language", "de", "Vom Spiel"])
        #expect(posted.status == 0, "\(posted.errors)")
        let record = try #require(try created().last?["record"] as? [String: Any])
        let labels = try #require(record["labels"] as? [String: Any])
        #expect((labels["values"] as? [[String: Any]])?.first?["val"] as? String == "graphic-media")
        #expect(record["langs"] as? [String] == ["de"])

        // --no-card: no page is read (it would be example.com's), no card, nothing said.
        let plain = try await scenario.timeline.runOffThePool(["post", "--no-card", "See https://example.com/article"])
        #expect(plain.status == 0 && plain.errors.isEmpty, "\(plain.errors)")
        let uncarded = try #require(try created().last?["record"] as? [String: Any])
        #expect(uncarded["embed"] == nil && (uncarded["facets"] as? [Any])?.count == 1)
    }
}
