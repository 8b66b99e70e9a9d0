import Foundation
import Testing

/// Issue 37, lists you can make: `list create`, `add`, `remove` and `delete` against the loopback
/// Mastodon server, which adds to a list only an account the user follows, as Mastodon does.
@Suite(.serialized) struct ListEditCommandTests {
    @Test func aListIsMadeGainsAFollowedAccountLosesItAndIsDeleted() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)

        let created = try await scenario.timeline.runOffThePool(["list", "create", "Rainy days"])
        #expect(created.status == 0, "\(created.errors)")
        let id = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(!id.isEmpty && id.allSatisfy(\.isNumber), "\(created.output)")
        #expect(created.errors.contains("Made the list \"Rainy days\""), "\(created.errors)")
        let lists = try await scenario.timeline.runOffThePool(["lists"])
        #expect(lists.output.contains(id + "  Rainy days"), "\(lists.output)")

        let notFollowed = try await scenario.timeline.runOffThePool(["list", "add", id, "user2"])
        #expect(notFollowed.status != 0)
        #expect(notFollowed.errors.contains("Mastodon adds to a list only an account you follow: `timeline follow user2` first"), "\(notFollowed.errors)")
        #expect(notFollowed.errors.split(separator: "\n").count == 1, "\(notFollowed.errors)")

        #expect(try await scenario.timeline.runOffThePool(["follow", "user2"]).status == 0)
        let added = try await scenario.timeline.runOffThePool(["list", "add", id, "@user2"])
        #expect(added.status == 0, "\(added.errors)")
        #expect(added.output.contains("Added @user2"), "\(added.output)")
        #expect((try server.control("lists") as? [String: [String]])?[id]?.count == 1)

        let removed = try await scenario.timeline.runOffThePool(["list", "remove", id, "user2"])
        #expect(removed.status == 0 && removed.output.contains("Took @user2"), "\(removed.output)\(removed.errors)")
        #expect((try server.control("lists") as? [String: [String]])?[id] == [])

        let deleted = try await scenario.timeline.runOffThePool(["list", "delete", id])
        #expect(deleted.status == 0 && deleted.output == "Deleted the list.\n", "\(deleted.output)\(deleted.errors)")
        #expect((try server.control("lists") as? [String: [String]])?[id] == nil)

        // `timeline list ID` still reads a list's timeline.
        let read = try await scenario.timeline.runOffThePool(["list", "42", "-n", "3"])
        #expect(read.status == 0, "\(read.errors)")
    }

    @Test func aBlueskyListIsARecordItsItemsAreRecordsAndDeletingItDeletesThem() async throws {
        let server = try BlueskyTestServer.start()
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        let created = try await scenario.timeline.runOffThePool(["list", "create", "Sky people"])
        #expect(created.status == 0, "\(created.errors)")
        let uri = created.output.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(uri.hasPrefix("at://\(BlueskyTestServer.did)/app.bsky.graph.list/"), "\(created.output)")

        let added = try await scenario.timeline.runOffThePool(["list", "add", uri, "user1.loopback.test"])
        #expect(added.status == 0 && added.output.contains("Added @user1.loopback.test"), "\(added.output)\(added.errors)")
        let again = try await scenario.timeline.runOffThePool(["list", "add", uri, "user1.loopback.test"])
        #expect(again.output.contains("is in the list already"), "\(again.output)\(again.errors)")
        let records = try #require(try server.state()["created"] as? [[String: Any]])
        let item = try #require(records.compactMap { $0["record"] as? [String: Any] }.first { $0["$type"] as? String == "app.bsky.graph.listitem" })
        #expect(item["subject"] as? String == BlueskyTestServer.user1DID && item["list"] as? String == uri)

        let notOurs = try await scenario.timeline.runOffThePool(["list", "delete", "at://did:plc:someoneelse/app.bsky.graph.list/3kx"])
        #expect(notOurs.status != 0 && notOurs.errors.contains("is not one of your lists"), "\(notOurs.errors)")

        let deleted = try await scenario.timeline.runOffThePool(["list", "delete", uri])
        #expect(deleted.status == 0 && deleted.output == "Deleted the list and its 1 item.\n", "\(deleted.output)\(deleted.errors)")
        let gone = try #require(try server.state()["deleted"] as? [String])
        #expect(gone.contains(uri) && gone.contains { $0.contains("/app.bsky.graph.listitem/") })
    }
}
