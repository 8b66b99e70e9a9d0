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

    /// Read by the whole-file path and by the preview path that `timeline show` takes.
    @Test func aVersion1SnapshotFromTheFixturesReadsToTheValueItWasMadeFrom() throws {
        let file = SnapshotFile(path: Fixtures.path("snapshot-v1.snapshot"))
        let expected = Self.version1Sample()
        #expect(try file.readHeader().formatVersion == 1)
        #expect(try file.read() == expected)
        let preview = try file.readPreview(messages: 1)
        #expect(preview.head.messages == [expected.window.messages[0]])
        #expect(preview.head.related.map(\.id) == ["r1", "117000000000000001"])
        #expect(try preview.complete() == expected)
    }

    /// While version 1 is the current format, this library writes its payload byte for byte as
    /// the fixture holds it. (The payloads are compared, not the files: another liblz4 may
    /// compress the same bytes differently.)
    @Test func theCurrentFormatWritesTheVersion1PayloadByteForByte() throws {
        try #require(TimelineSnapshot.formatVersion == 1)
        let file = Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("snapshot-v1.snapshot"))))
        let (header, payloadOffset) = try SnapshotHeader.decode(file, path: "fixture")
        let payload = try LZ4Frame.decompress(file[payloadOffset...], maxContentSize: header.payloadLength)
        #expect(try BinaryEncoder().encode(Self.version1Sample()) == payload)
    }
}
