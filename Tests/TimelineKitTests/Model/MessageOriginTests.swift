import Testing
@testable import TimelineKit

/// Where a message came from, told by its ID alone, as the renderer marks a mixed timeline.
@Suite struct MessageOriginTests {
    @Test(arguments: [
        ("at://did:plc:abc/app.bsky.feed.post/3kxyz", MessageOrigin.bluesky),
        ("mastodon.social/113542871234567890", .mastodon),
        ("127.0.0.1:3000/5", .mastodon),
        ("[::1]:3000/5", .mastodon),
        ("117626012958762273", .other),
        ("local-2026-abc", .other),
        ("a/b", .other),
        ("/x", .other),
        ("Evil Host.example/1", .other),
        ("", .other),
    ])
    func anIDSaysItsNetwork(id: String, origin: MessageOrigin) {
        #expect(MessageOrigin(id: id) == origin)
        #expect(MessageOrigin.isBluesky(id) == (origin == .bluesky))
    }
}
