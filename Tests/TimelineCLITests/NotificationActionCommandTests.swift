import Foundation
import Testing

/// Issue 37, mentions: `show --notifications --only KINDS` and the short reference a
/// notification line carries, acted on from the notifications view against the loopback
/// Mastodon server.
@Suite(.serialized) struct NotificationActionCommandTests {
    @Test func aMentionIsRepliedToAndFavouritedByTheReferenceItsNotificationLineCarries() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)

        let shown = try await scenario.timeline.runOffThePool(["show", "--notifications", "--only", "mentions", "-n", "50", "--color", "never"])
        #expect(shown.status == 0, "\(shown.errors)")
        let lines = shown.output.split(separator: "\n")
        #expect(!lines.isEmpty)
        #expect(lines.allSatisfy { $0.hasPrefix("@ ") && $0.contains("mentioned you") }, "\(shown.output)")
        let line = try #require(lines.first)
        let reference = String(try #require(line.split(separator: " ").last))
        #expect(reference.allSatisfy { "bcdfghjklmnpqrstvwxz".contains($0) } && reference.count >= 3, "\(line)")

        let json = try await scenario.timeline.runOffThePool(["show", "--notifications", "--only", "mention", "--json", "-n", "1"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [String: Any])
        #expect(object["ref"] as? String == reference)
        #expect(object["type"] as? String == "mention")
        let messageID = try #require(object["message_id"] as? String)
        let serverID = try #require(messageID.split(separator: "/").last.map(String.init))

        let reply = try await scenario.timeline.runOffThePool(["post", "--reply-to", reference, "thanks for the mention"])
        #expect(reply.status == 0, "\(reply.errors)")
        let replyTo = try scenario.sqlite("SELECT reply_to_id FROM messages WHERE text = 'thanks for the mention'")
        #expect(replyTo == messageID)

        let favourite = try await scenario.timeline.runOffThePool(["favourite", reference])
        #expect(favourite.status == 0, "\(favourite.errors)")
        #expect(try server.requests().contains {
            $0["method"] as? String == "POST" && $0["path"] as? String == "/api/v1/statuses/\(serverID)/favourite"
        })
    }

    @Test func onlyFollowsAndFavouritesShowsThoseKindsAndAnUnknownKindIsRefusedNamingTheValidOnes() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)

        let shown = try await scenario.timeline.runOffThePool(["show", "--notifications", "--only", "follows, likes", "--json", "-n", "80"])
        #expect(shown.status == 0, "\(shown.errors)")
        let types = Set(shown.output.split(separator: "\n").compactMap {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any])?["type"] as? String
        })
        #expect(types == ["follow", "favourite"])

        let unknown = try await scenario.timeline.runOffThePool(["show", "--notifications", "--only", "mentions,hugs"])
        #expect(unknown.status == 64)
        #expect(unknown.errors.contains("\"hugs\" is not a kind of notification"), "\(unknown.errors)")
        #expect(unknown.errors.contains("mentions, replies, quotes, favourites, boosts, follows"), "\(unknown.errors)")

        let alone = try await scenario.timeline.runOffThePool(["show", "--only", "mentions"])
        #expect(alone.status == 64)
        #expect(alone.errors.contains("--notifications"), "\(alone.errors)")
    }
}
