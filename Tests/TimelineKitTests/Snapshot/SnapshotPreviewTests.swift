import Foundation
import Testing
@testable import TimelineKit

/// `SnapshotPreview` decodes only the start of the window; these pin down that what it does
/// decode is exactly what a full read gives, and that it refuses what a full read refuses.
@Suite struct SnapshotPreviewTests {
    /// A window with reposts and quotes whose originals sit later in the window or in `related`,
    /// replies to users, attachments, and users nothing in the head shows.
    static func sample() -> TimelineSnapshot {
        let users = (0..<12).map { User(id: "u\($0)", handle: "user\($0)", name: "Üser \($0) 日本", url: $0 == 3 ? "https://x.example/3" : nil, isBot: $0 == 4) }
        var messages: [Message] = []
        for n in stride(from: 40, through: 1, by: -1) {
            var message = Message(id: "m\(n)", authorID: "u\(n % 12)", text: "text \(n) — ünïcødé 👩‍💻 " + String(repeating: "y", count: n),
                                  createdAt: Samples.epoch.addingTimeInterval(Double(n) * 60))
            if n == 40 { message.repostOfID = "m3" }        // original later in the window
            if n == 39 { message.quoteOfID = "r1" }         // original in related
            if n == 38 { message.replyToID = "x"; message.replyToUserID = "u11" }
            if n == 37 { message.attachments = [Attachment(kind: "image", url: "https://x.example/a.png", altText: "alt")] }
            if n.isMultiple(of: 7) { message.editedAt = Samples.epoch.addingTimeInterval(Double(n) * 61); message.contentWarning = "cw" }
            message.isRead = n.isMultiple(of: 2)
            messages.append(message)
        }
        let related = [Message(id: "r1", authorID: "u10", text: "an older original", createdAt: Samples.epoch)]
        return TimelineSnapshot(
            state: TimelineState(databaseID: "0123456789abcdef0123456789abcdef", generation: 77,
                                 messageCount: 500, unreadCount: 20, userCount: 12),
            builtAt: Samples.epoch, limit: 40,
            window: TimelinePage(messages: messages, related: related, users: users, nextCursor: messages.last?.cursor))
    }

    @Test(arguments: [0, 1, 2, 3, 5, 39, 40, 100])
    func thePreviewIsThePrefixOfTheWholeWindow(count: Int) throws {
        let snapshot = Self.sample()
        let file = try SnapshotFile.encode(snapshot)
        let preview = try SnapshotFile.decodePreview(file, messages: count)
        let expected = snapshot.window.prefix(count)

        #expect(preview.state == snapshot.state)
        #expect(preview.builtAt == snapshot.builtAt)
        #expect(preview.limit == snapshot.limit)
        #expect(preview.windowMessageCount == 40)
        #expect(preview.isWholeWindow == (count >= 40))
        #expect(preview.head.messages == expected.messages)
        // The related messages the head shows, no others.
        let originals = TimelinePage.originalIDs(shownWith: expected.messages)
        #expect(Set(preview.head.related.map(\.id)) == Set(expected.related.map(\.id)).intersection(originals))
        #expect(preview.head.nextCursor == snapshot.window.nextCursor)
        // Exactly the users the head shows, as the full page has them.
        var shown = Set<String>()
        for message in preview.head.messages + preview.head.related {
            shown.insert(message.authorID)
            if let id = message.replyToUserID { shown.insert(id) }
        }
        #expect(preview.head.users == snapshot.window.users.filter { shown.contains($0.id) })
        #expect(try preview.complete() == snapshot)
    }

    /// A window of 200 messages of some 400 bytes: a payload of several LZ4 blocks.
    static func largeSample() -> TimelineSnapshot {
        var snapshot = sample()
        snapshot.limit = 200
        snapshot.window.messages = (1 ... 200).reversed().map { n in
            Message(id: "big\(n)", authorID: "u\(n % 12)", text: "message \(n): " + String(repeating: "lorem ipsum \(n) ", count: 25),
                    createdAt: Samples.epoch.addingTimeInterval(Double(n) * 60))
        }
        snapshot.window.nextCursor = snapshot.window.messages.last?.cursor
        return snapshot
    }

    /// The paint of a first screen decompresses the blocks that hold what comes before the
    /// window's messages and its head, not those of the messages after it (format 6 lists them
    /// last); the rest is decompressed when the content is checked after the paint.
    @Test func aFirstScreenDecompressesOnlyTheBlocksItReads() throws {
        let snapshot = Self.largeSample()
        let file = try SnapshotFile.encode(snapshot)
        let preview = try SnapshotFile.decodePreview(file, messages: 3)
        let payloadSize = preview.frame.contentSize
        #expect(payloadSize > 4 * LZ4Frame.blockContentSize)
        #expect(preview.restOffset < LZ4Frame.blockContentSize)
        #expect(preview.frame.produced == LZ4Frame.blockContentSize)
        #expect(preview.head.messages == Array(snapshot.window.messages.prefix(3)))
        try preview.checkContent()
        #expect(preview.frame.produced == payloadSize)
        #expect(try preview.complete() == snapshot)
    }

    @Test func aRepostedOriginalLaterInTheWindowComesWithTheHead() throws {
        let preview = try SnapshotFile.decodePreview(try SnapshotFile.encode(Self.sample()), messages: 2)
        #expect(preview.head.messages.map(\.id) == ["m40", "m39"])
        #expect(Set(preview.head.related.map(\.id)) == ["m3", "r1"])
        let text = TimelineRenderer(options: RenderOptions(width: 80)).renderText(preview.head, now: Samples.epoch)
        #expect(text.contains("text 3 "))
        #expect(text.contains("an older original"))
    }

    /// `value`'s bytes in a payload.
    static func bytes<Field: BinaryField>(of value: Field) -> [UInt8] {
        let writer = BinaryWriter()
        value.write(to: writer)
        return writer.bytes
    }

    /// The preview tells which of the later messages and which users to make by their IDs, read
    /// before anything else of them: `Message` and `User` list their ID first.
    @Test func messagesAndUsersListTheirIDFirst() throws {
        let window = Self.sample().window
        for message in window.messages + window.related {
            #expect(Self.bytes(of: message).starts(with: Self.bytes(of: message.id)))
        }
        for user in window.users {
            #expect(Self.bytes(of: user).starts(with: Self.bytes(of: user.id)))
        }
    }

    @Test func everyTruncationIsRefusedByThePreviewToo() throws {
        let file = try SnapshotFile.encode(Self.sample())
        for length in 0..<file.count {
            #expect(throws: SnapshotError.self) { try SnapshotFile.decodePreview(Array(file.prefix(length)), messages: 3) }
        }
    }

    /// Only a file crafted to pass the checksums gets this far: the preview never made the bad
    /// text, and completing refuses it as a full read does.
    @Test func invalidTextInASkippedMessageFailsOnlyWhenCompleted() throws {
        let snapshot = Self.sample()
        var payload = BinaryEncoder().encode(snapshot)
        let marker = Array("text 1 —".utf8)
        let start = try #require(payload.indices.first { payload[$0...].starts(with: marker) })
        payload[start + 5] = 0xFF
        let header = SnapshotHeader(formatVersion: TimelineSnapshot.formatVersion, payloadLength: payload.count,
                                    generation: snapshot.state.generation, limit: snapshot.limit,
                                    databaseID: snapshot.state.databaseID)
        let file = header.encoded() + (try LZ4Frame.compress(payload))

        let preview = try SnapshotFile.decodePreview(file, messages: 5)
        #expect(preview.head.messages.count == 5)
        #expect {
            try preview.complete()
        } throws: { error in
            guard case .corrupt = error as? SnapshotError else { return false }
            return true
        }
        #expect(throws: SnapshotError.self) { try SnapshotFile.decode(file) }
    }

    /// The one check a preview leaves for after the paint (issue 38): the LZ4 content checksum.
    /// Damaged, the preview still paints (every block's checksum held), and the check after it,
    /// completing, and a full read all refuse the file.
    @Test func aDamagedContentChecksumIsRefusedAfterThePaint() throws {
        var file = try SnapshotFile.encode(Self.sample())
        file[file.count - 1] ^= 0x01
        let preview = try SnapshotFile.decodePreview(file, messages: 3)
        #expect(preview.head.messages.count == 3)
        #expect(throws: SnapshotError.self) { try preview.checkContent() }
        #expect(throws: SnapshotError.self) { try preview.complete() }
        #expect(throws: SnapshotError.self) { try SnapshotFile.decode(file) }
        #expect(throws: Never.self) { try SnapshotFile.decodePreview(try SnapshotFile.encode(Self.sample()), messages: 3).checkContent() }
    }

    /// A corrupt snapshot never paints: every flipped bit of the file is refused before the
    /// preview is made, except in the four bytes of the content checksum, which the check after
    /// the paint refuses.
    @Test func everyFlippedBitIsRefusedBeforeThePaintButTheContentChecksumsAfterIt() throws {
        let file = try SnapshotFile.encode(Self.sample())
        var refusedBefore = 0, refusedAfter = 0
        for offset in file.indices {
            for bit in 0 ..< 8 {
                var damaged = file
                damaged[offset] ^= 1 << bit
                guard let preview = try? SnapshotFile.decodePreview(damaged, messages: 3) else {
                    refusedBefore += 1
                    continue
                }
                #expect(offset >= file.count - 4, "a flip of bit \(bit) at byte \(offset) of \(file.count) made a preview")
                if (try? preview.checkContent()) == nil { refusedAfter += 1 }
            }
        }
        #expect(refusedAfter == 32)
        #expect(refusedBefore + refusedAfter == file.count * 8)
    }
}
