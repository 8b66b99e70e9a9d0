import Foundation
import Testing
@testable import TimelineKit

/// A snapshot file of every format version this library still reads is kept in `Fixtures/`,
/// written by the library of that version, and must read back to the value it was made from.
@Suite struct SnapshotFormatVersionTests {
    /// The value in `Fixtures/snapshot-v1.snapshot`: every field of every type in the payload
    /// set and unset at least once.
    static func version1Sample() -> TimelineSnapshot {
        let epoch = Date(timeIntervalSince1970: 1_795_000_000)
        let users = [
            User(id: "u1", handle: "alice", name: "Alice Example"),
            User(id: "u2", handle: "bob@example.social", name: "Bob 🐝", url: "https://example.social/@bob", isBot: true),
            User(id: "109876543210987654", handle: "日本", name: "名前 ünïcødé"),
        ]
        let messages = [
            Message(id: "117000000000000005", authorID: "u1", text: "", createdAt: epoch.addingTimeInterval(300),
                    repostOfID: "117000000000000001"),
            Message(id: "117000000000000004", authorID: "u2", text: "quoting 👩‍💻\nsecond line",
                    createdAt: epoch.addingTimeInterval(240.125), editedAt: epoch.addingTimeInterval(250.5),
                    replyToID: "117000000000000002", replyToUserID: "109876543210987654", quoteOfID: "r1",
                    contentWarning: "spoilers", url: "https://example.social/@bob/117000000000000004",
                    attachments: [Attachment(kind: "image", url: "https://example.social/a.png", altText: "a cat"),
                                  Attachment(kind: "video"), Attachment(kind: "gifv", altText: "")],
                    likeCount: 5_210, repostCount: 1_000_000, replyCount: 3, isRead: true),
            Message(id: "117000000000000002", authorID: "109876543210987654", text: "こんにちは e\u{301}",
                    createdAt: epoch.addingTimeInterval(120), contentWarning: ""),
            Message(id: "117000000000000001", authorID: "u1", text: String(repeating: "long text ", count: 20),
                    createdAt: epoch.addingTimeInterval(60), likeCount: Int.max, isRead: true),
        ]
        let related = [Message(id: "r1", authorID: "u2", text: "an older original", createdAt: epoch.addingTimeInterval(-86_400))]
        return TimelineSnapshot(
            state: TimelineState(databaseID: "0123456789abcdef0123456789abcdef", generation: 9_876_543_210,
                                 messageCount: 1_234, unreadCount: 56, userCount: 3),
            builtAt: epoch.addingTimeInterval(301.5), limit: 200,
            window: TimelinePage(messages: messages, related: related, users: users, nextCursor: messages.last?.cursor))
    }

    /// The value in `Fixtures/snapshot-v2.snapshot`: version 1's, with the short references a
    /// store gives its messages (one message without: built by hand, not read from a store).
    static func version2Sample() -> TimelineSnapshot {
        var snapshot = version1Sample()
        let references = ["bfz", "bfx", "", "qhtzb"]
        for index in snapshot.window.messages.indices {
            snapshot.window.messages[index].shortReference = ShortReference(text: references[index])
        }
        snapshot.window.related[0].shortReference = ShortReference(sequence: 7)
        return snapshot
    }

    /// The references the version 2 sample holds, in order: `==` ignores them (see
    /// `ShortReference`), so they are compared on their own.
    static func references(_ snapshot: TimelineSnapshot) -> [String] {
        (snapshot.window.messages + snapshot.window.related).map(\.shortReference.text)
    }

    /// The value in `Fixtures/snapshot-v3.snapshot`: version 2's, with what the person's
    /// accounts did to three of its messages (one of them the related original), every flag set
    /// and unset at least once.
    static func version3Sample() -> TimelineSnapshot {
        var snapshot = version2Sample()
        snapshot.window.interactions = [
            MessageInteraction(messageID: "117000000000000001", favourited: true),
            MessageInteraction(messageID: "117000000000000004", boosted: true, bookmarked: true),
            MessageInteraction(messageID: "r1", favourited: true, boosted: true, bookmarked: true),
        ]
        return snapshot
    }

    /// The value in `Fixtures/snapshot-v4.snapshot`: version 3's, with an action waiting for
    /// its server on two of the messages (one of them the related original, one whose only
    /// flag is the wait: an unfavourite sent nowhere yet).
    static func version4Sample() -> TimelineSnapshot {
        var snapshot = version3Sample()
        snapshot.window.interactions[1].pending = true
        snapshot.window.interactions[2].pending = true
        snapshot.window.interactions.append(MessageInteraction(messageID: "117000000000000005", pending: true))
        return snapshot
    }

    /// The value in `Fixtures/snapshot-v5.snapshot`: version 4's, with who may see three of its
    /// messages (every audience but one), what their servers said of two (labels on the post and
    /// on the author, a filter matched) and the warning the person's rules fold one behind.
    static func version5Sample() -> TimelineSnapshot {
        var snapshot = version4Sample()
        snapshot.window.messages[0].visibility = .public
        snapshot.window.messages[1].visibility = .direct
        snapshot.window.messages[1].moderation = ModerationFacts(
            labels: [ContentLabel(source: "did:plc:ar7c4by46qjdydhdevvrndac", value: "graphic-media"),
                     ContentLabel(source: "did:plc:author", value: "nudity", isOnAuthor: true)],
            filterMatches: [FilterMatch(title: "Spoilers ⚠", action: .warn), FilterMatch(title: "pictures", action: .blur)])
        snapshot.window.messages[1].warning = "Filtered: Spoilers ⚠"
        snapshot.window.messages[2].visibility = .private
        snapshot.window.related[0].visibility = .unlisted
        snapshot.window.related[0].moderation = ModerationFacts(filterMatches: [FilterMatch(title: "", action: .hide)])
        return snapshot
    }

    /// The value in `Fixtures/snapshot-v6.snapshot`: version 5's, with where three of its
    /// messages came from (two networks and a feed; the rest `import`), in version 6's layout (a
    /// page's messages after its related messages, users, cursor and interactions).
    static func version6Sample() -> TimelineSnapshot {
        var snapshot = version5Sample()
        snapshot.window.messages[0].source = .mastodon
        snapshot.window.messages[1].source = .bluesky
        snapshot.window.related[0].source = .feed
        return snapshot
    }

    /// The value in `Fixtures/snapshot-v7.snapshot`: version 6's, with the web links of two of
    /// its messages (one of a page, one related; issue 37), the rest none.
    static func version7Sample() -> TimelineSnapshot {
        var snapshot = version6Sample()
        snapshot.window.messages[1].links = ["https://example.org/article", "http://例え.example/パス?q=1&r=2"]
        snapshot.window.related[0].links = ["https://news.example/story"]
        return snapshot
    }

    /// Read by the whole-file path and by the preview path that `timeline show` takes.
    @Test func aVersion7SnapshotFromTheFixturesReadsToTheValueItWasMadeFrom() throws {
        let file = SnapshotFile(path: Fixtures.path("snapshot-v7.snapshot"))
        let expected = Self.version7Sample()
        #expect(try file.readHeader().formatVersion == 7)
        let read = try file.read()
        #expect(read == expected)
        #expect(Self.references(read) == Self.references(expected))
        let preview = try file.readPreview(messages: 1)
        #expect(preview.head.messages == [expected.window.messages[0]])
        #expect(preview.head.messages.map(\.shortReference.text) == ["bfz"])
        // The original the first message reposts, later in the window; not `r1`, which only the
        // second quotes.
        #expect(preview.head.related.map(\.id) == ["117000000000000001"])
        #expect(preview.head.interactions == expected.window.interactions)
        let completed = try preview.complete()
        #expect(completed == expected)
        #expect(Self.references(completed) == Self.references(expected))
    }

    /// While version 7 is the current format, this library writes its payload byte for byte as
    /// the fixture holds it. (The payloads are compared, not the files: another liblz4 may
    /// compress the same bytes differently.)
    @Test func theCurrentFormatWritesTheVersion7PayloadByteForByte() throws {
        try #require(TimelineSnapshot.formatVersion == 7)
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("snapshot-v7.snapshot"))))
        let (header, payloadOffset) = try SnapshotHeader.decode(file, path: "fixture")
        let payload = try LZ4Frame.decompress(file[payloadOffset...], maxContentSize: header.payloadLength)
        #expect(BinaryEncoder().encode(Self.version7Sample()) == payload)
        // And so does the file a store writes: the same header, and the same payload in its frame.
        let written = try SnapshotFile.encode(Self.version7Sample())
        let (writtenHeader, writtenOffset) = try SnapshotHeader.decode(written, path: "written")
        #expect(written[..<writtenOffset] == file[..<payloadOffset])
        #expect(try LZ4Frame.decompress(written[writtenOffset...], maxContentSize: writtenHeader.payloadLength) == payload)
    }

    /// Versions 1 (before short references), 2 (before interactions), 3 (before pending
    /// actions), 4 (before visibility and moderation), 5 (before sources, a page's messages
    /// first) and 6 (before links) are no longer read: each is refused as an older format, which
    /// `show` answers by painting from the database and writing a new snapshot.
    @Test(arguments: [1, 2, 3, 4, 5, 6]) func anOlderSnapshotIsRefusedAsAnOlderFormat(version: Int) throws {
        let file = SnapshotFile(path: Fixtures.path("snapshot-v\(version).snapshot"))
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: file.path)))
        #expect(Int(bytes[16]) | Int(bytes[17]) << 8 == version)
        #expect(throws: SnapshotError.unsupportedFormat(path: file.path, version: version)) { try file.read() }
        #expect(throws: SnapshotError.unsupportedFormat(path: file.path, version: version)) { try file.readPreview(messages: 1) }
    }

}
