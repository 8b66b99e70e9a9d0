import Foundation
import Testing
@testable import TimelineKit

@Suite struct MastodonPostingTests {
    @Test func aPostSendsItsFieldsAndStoresTheServersStatusAsRead() async throws {
        let fixture = try SyncFixture()
        let parent = fixture.server.post(1)[0]
        try await fixture.run()
        let post = MastodonPost(text: "Shipping \"today\" 🚀", contentWarning: "work", replyTo: "social.example/" + parent,
                                visibility: .unlisted, idempotencyKey: "key-1")
        let message = try await fixture.sync().post(post)
        let request = try #require(fixture.server.requests.last)
        #expect(request.method == .post)
        #expect(request.url == FakeMastodonServer.base + "/api/v1/statuses")
        #expect(request.headers.first { $0.matches("Idempotency-Key") }?.value == "key-1")
        let body = try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: String]
        #expect(body == ["status": "Shipping \"today\" 🚀", "spoiler_text": "work", "in_reply_to_id": parent, "visibility": "unlisted"])
        #expect(message.id == "social.example/" + fixture.server.homeIDs[0])
        #expect(message.text == "Shipping \"today\" 🚀")
        #expect(message.contentWarning == "work")
        #expect(message.isRead)
        #expect(try fixture.store.message(id: message.id) == message)
    }

    @Test func aRetriedPostIsPublishedOnce() async throws {
        let fixture = try SyncFixture()
        fixture.options.policy = RequestPolicy(maximumAttempts: 3)
        // The server publishes, but the answer is lost; the client retries with the same key.
        fixture.server.configure { $0.faults[0] = .lostAnswer }
        let post = MastodonPost(text: "once")
        let message = try await fixture.sync().post(post)
        #expect(fixture.server.requestCount == 2)
        #expect(fixture.server.homeIDs.count == 1)
        // A second run of the same post (after the command failed, say) publishes nothing new.
        fixture.server.configure { $0.faults[2] = .lostAnswer }
        fixture.options.policy = RequestPolicy(maximumAttempts: 1)
        await #expect(throws: ServerError.self) { try await fixture.sync().post(post) }
        #expect(try await fixture.sync().post(post) == message)
        #expect(fixture.server.homeIDs.count == 1)
        #expect(Set(fixture.server.requests.compactMap { $0.headers.first { $0.matches("Idempotency-Key") }?.value }) == [post.idempotencyKey])
    }

    @Test func repliesAreMappedToTheServersIDs() async throws {
        let fixture = try SyncFixture()
        let original = fixture.server.statusElsewhere()
        let boost = fixture.server.boost(original)
        try await fixture.run()
        let sync = try fixture.sync()
        // A boost stands for the status it shows.
        try await sync.post(MastodonPost(text: "a", replyTo: "social.example/" + boost))
        // An ID without a server is the server's own, as its web address shows it.
        try await sync.post(MastodonPost(text: "b", replyTo: "109876543210"))
        let replies = fixture.server.requests.filter { $0.method == .post }.map {
            (try? JSONSerialization.jsonObject(with: Data($0.body ?? [])) as? [String: String])?["in_reply_to_id"]
        }
        #expect(replies == [original, "109876543210"])
        await #expect(throws: ServerError.replyTargetElsewhere(messageID: "other.example/1", server: FakeMastodonServer.base)) {
            try await sync.post(MastodonPost(text: "c", replyTo: "other.example/1"))
        }
        #expect(fixture.server.requests.filter { $0.method == .post }.count == 2)
    }

    /// Issue 34: a reply to a direct message went out public. Without `visibility`, a reply
    /// takes a direct or followers-only status's audience, read from the server when it is sent;
    /// one given is sent as given; a public or unlisted status's reply keeps the account's default.
    @Test(arguments: [("direct", nil, "direct"), ("private", nil, "private"), ("unlisted", nil, nil), ("public", nil, nil),
                      ("direct", PostVisibility.public, "public"), ("private", PostVisibility.direct, "direct")])
    func aReplyIsNeverMorePublicThanWhatItAnswersUnlessAsked(parent: String, asked: PostVisibility?, sent: String?) async throws {
        let fixture = try SyncFixture()
        let id = fixture.server.post(1)[0]
        fixture.server.configure { state in
            if let index = state.statuses.firstIndex(where: { $0.id == id }) { state.statuses[index].visibility = parent }
        }
        try await fixture.run()
        try await fixture.sync().post(MastodonPost(text: "answer", replyTo: "social.example/" + id, visibility: asked))
        let request = try #require(fixture.server.requests.last { $0.method == .post && $0.url.hasSuffix("/api/v1/statuses") })
        let body = try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: String]
        #expect(body?["visibility"] == sent, "a reply to a \(parent) status, asked \(asked?.rawValue ?? "nothing")")
    }

    @Test func aReplyToAStatusTheServerNoLongerHasIsLeftToTheServer() async throws {
        let fixture = try SyncFixture()
        try await fixture.run()
        try await fixture.sync().post(MastodonPost(text: "answer", replyTo: "109876543210"))
        let request = try #require(fixture.server.requests.last)
        #expect(request.method == .post)
        let body = try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: String]
        #expect(body?["visibility"] == nil && body?["in_reply_to_id"] == "109876543210")
    }

    /// A `visibility` wider than the post replied to is sent as asked, and said (`widened`).
    @Test(arguments: [("direct", PostVisibility.public, true), ("private", PostVisibility.unlisted, true),
                      ("direct", PostVisibility.direct, false), ("public", PostVisibility.public, false), ("public", PostVisibility.direct, false)])
    func aReplyMadeWiderThanItsPostIsSaid(parent: String, asked: PostVisibility, widened: Bool) async throws {
        let fixture = try SyncFixture()
        let id = fixture.server.post(1)[0]
        fixture.server.configure { state in
            if let index = state.statuses.firstIndex(where: { $0.id == id }) { state.statuses[index].visibility = parent }
        }
        try await fixture.run()
        let (_, change) = try await fixture.sync().posting(MastodonPost(text: "answer", replyTo: "social.example/" + id, visibility: asked))
        #expect(change == (widened ? VisibilityChange(before: PostVisibility(rawValue: parent)!, after: asked) : nil))
    }
}
