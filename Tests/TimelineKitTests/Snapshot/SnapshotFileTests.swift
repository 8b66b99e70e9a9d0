import Foundation
import Testing
@testable import TimelineKit

@Suite struct SnapshotFileTests {
    static func sample(messages: Int = 30) -> TimelineSnapshot {
        var list: [Message] = []
        for n in stride(from: messages, through: 1, by: -1) {
            var message = Samples.message(n, author: n.isMultiple(of: 3) ? Samples.bob : Samples.alice,
                                          text: "message \(n) — ünïcødé 日本語 👩‍💻 " + String(repeating: "x", count: n))
            message.likeCount = n * 3
            message.isRead = n.isMultiple(of: 2)
            if n.isMultiple(of: 5) { message.replyToID = "m\(n - 1)" }
            if n == 7 { message.attachments = [Attachment(kind: "image", altText: "alt")] }
            list.append(message)
        }
        return TimelineSnapshot(
            state: TimelineState(databaseID: "0123456789abcdef0123456789abcdef", generation: 4242,
                                 messageCount: 1000, unreadCount: 500, userCount: 2),
            builtAt: Date(timeIntervalSince1970: 1_795_000_000.5), limit: 200,
            window: TimelinePage(messages: list, related: [], users: [Samples.alice, Samples.bob],
                                 nextCursor: list.last?.cursor))
    }

    @Test func aSnapshotReadsBackEqualToTheValueWritten() throws {
        let directory = TemporaryDirectory()
        let file = SnapshotFile(path: directory.file("timeline.snapshot"))
        let snapshot = Self.sample()
        try file.write(snapshot)
        #expect(try file.read() == snapshot)
        #expect(try file.readHeader() == SnapshotHeader(
            formatVersion: TimelineSnapshot.formatVersion, payloadLength: BinaryEncoder().encode(snapshot).count,
            generation: 4242, limit: 200, databaseID: snapshot.state.databaseID))
    }

    @Test func theStockLZ4ToolDecompressesTheSnapshotToItsPayload() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.snapshot")
        let snapshot = Self.sample()
        try SnapshotFile(path: path).write(snapshot)
        let output = directory.file("payload")
        try ExternalCommand.run("/usr/bin/lz4", ["-d", "-q", path, output])
        let payload = try Data(contentsOf: URL(fileURLWithPath: output))
        #expect(try BinaryDecoder().decode(TimelineSnapshot.self, from: Array(payload)) == snapshot)
    }

    @Test func theSnapshotFileIsPrivate() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.snapshot")
        let oldMask = umask(0)
        defer { umask(oldMask) }
        try SnapshotFile(path: path).write(Self.sample())
        #expect(try FileSystem.permissions(at: path) == 0o600)
    }

    @Test func theSnapshotIsNamedAfterItsDatabase() {
        #expect(SnapshotFile.path(forDatabaseAt: "/home/a/.local/share/timeline/timeline.sqlite") == "/home/a/.local/share/timeline/timeline.snapshot")
        #expect(SnapshotFile.path(forDatabaseAt: "data.db") == "data.snapshot")
        #expect(SnapshotFile.path(forDatabaseAt: "/tmp/x.y/timeline") == "/tmp/x.y/timeline.snapshot")
        #expect(SnapshotFile.path(forDatabaseAt: "/tmp/.hidden") == "/tmp/.hidden.snapshot")
    }

    @Test func theSnapshotTruncatedAtEveryByteIsRefused() throws {
        let bytes = try SnapshotFile.encode(Self.sample(messages: 3))
        for length in 0..<bytes.count {
            #expect(throws: SnapshotError.self, "length \(length)") {
                try SnapshotFile.decode(Array(bytes.prefix(length)))
            }
        }
    }

    @Test func aFlippedBitInEveryRegionIsRefused() throws {
        let bytes = try SnapshotFile.encode(Self.sample(messages: 3))
        let (_, payloadOffset) = try SnapshotHeader.decode(bytes, path: "x")
        // Every bit of the header (skippable frame and all its fields), then every bit of the LZ4
        // frame's header, of its first block and of its trailing checksums.
        var offsets = Array(0..<payloadOffset + 15)
        offsets += Array(payloadOffset + 15..<min(bytes.count, payloadOffset + 200))
        offsets += Array(max(0, bytes.count - 12)..<bytes.count)
        var refused = 0
        for offset in Set(offsets).sorted() {
            for bit in 0..<8 {
                var damaged = bytes
                damaged[offset] ^= 1 << bit
                do {
                    let decoded = try SnapshotFile.decode(damaged)
                    Issue.record("a flip of bit \(bit) at byte \(offset) read as a valid snapshot: \(decoded.state)")
                } catch {
                    refused += 1
                }
            }
        }
        #expect(refused == Set(offsets).count * 8)
    }

    @Test func aFileOfAnotherFormatVersionIsRefusedWithWhichVersion() throws {
        var newer = try SnapshotFile.encode(Self.sample())
        let version = UInt16(TimelineSnapshot.formatVersion + 1)
        rewriteHeader(&newer) { $0[8] = UInt8(version & 0xFF); $0[9] = UInt8(version >> 8) }
        #expect(throws: SnapshotError.newerFormat(path: "snapshot", version: Int(version), newestKnown: TimelineSnapshot.formatVersion)) {
            try SnapshotFile.decode(newer)
        }
        var older = try SnapshotFile.encode(Self.sample())
        rewriteHeader(&older) { $0[8] = 0; $0[9] = 0 }
        #expect(throws: SnapshotError.unsupportedFormat(path: "snapshot", version: 0)) {
            try SnapshotFile.decode(older)
        }
    }

    /// Fresh means the same database at the same generation, whatever else the states hold, for
    /// a snapshot, a preview and a header alike.
    @Test func freshMeansTheSameDatabaseAtTheSameGenerationWhereverItIsAsked() throws {
        let snapshot = Self.sample()
        let file = try SnapshotFile.encode(snapshot)
        let preview = try SnapshotFile.decodePreview(file, messages: 3)
        let header = try SnapshotHeader.decode(file, path: "snapshot").header
        var sameButCounts = snapshot.state
        sameButCounts.messageCount += 1
        sameButCounts.unreadCount = 0
        var anotherDatabase = snapshot.state
        anotherDatabase.databaseID = "fedcba9876543210fedcba9876543210"
        var anotherGeneration = snapshot.state
        anotherGeneration.generation += 1
        for (state, fresh) in [(snapshot.state, true), (sameButCounts, true), (anotherDatabase, false), (anotherGeneration, false)] {
            #expect(snapshot.isFresh(for: state) == fresh)
            #expect(preview.isFresh(for: state) == fresh)
            #expect(SnapshotStatus(header: header, state: state).isFresh == fresh)
        }
    }

    @Test func aHugeDeclaredPayloadIsRefusedBeforeAllocating() throws {
        var bytes = try SnapshotFile.encode(Self.sample())
        rewriteHeader(&bytes) { header in
            for (i, byte) in [UInt8(0xFF), 0xFF, 0xFF, 0x7F].enumerated() { header[12 + i] = byte }
        }
        #expect(throws: SnapshotError.tooLarge(path: "snapshot", size: 0x7FFF_FFFF, limit: SnapshotHeader.maximumPayloadLength)) {
            try SnapshotFile.decode(bytes)
        }
    }

    @Test func aWellFormedSnapshotWithImpossibleValuesIsRefused() throws {
        var negative = Self.sample()
        negative.state.unreadCount = -1_282_969_662
        var notFinite = Self.sample()
        notFinite.window.messages[0].createdAt = Date(timeIntervalSinceReferenceDate: .nan)
        var noDatabase = Self.sample()
        noDatabase.state.databaseID = ""
        for snapshot in [negative, notFinite, noDatabase] {
            #expect {
                try SnapshotFile.decode(SnapshotFile.encode(snapshot))
            } throws: { error in
                guard case let .corrupt(_, reason) = error as? SnapshotError else { return false }
                return reason.contains("impossible values")
            }
        }
    }

    @Test func aFileThatIsNotASnapshotIsForeign() throws {
        #expect(throws: SnapshotError.foreign(path: "snapshot")) {
            try SnapshotFile.decode(Array("{\"messages\": []}\n".utf8))
        }
        // A plain LZ4 frame is still not a timeline snapshot.
        #expect(throws: SnapshotError.foreign(path: "snapshot")) {
            try SnapshotFile.decode(LZ4Frame.compress(Array("hello".utf8)))
        }
    }

    @Test func anInterruptedWriteDoesNotHideTheLastGoodSnapshot() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.snapshot")
        let good = Self.sample()
        try SnapshotFile(path: path).write(good)
        // A writer killed halfway leaves its temporary file behind.
        let next = try SnapshotFile.encode(Self.sample(messages: 40))
        try Data(next.prefix(next.count / 2)).write(to: URL(fileURLWithPath: path + ".tmp"))
        #expect(try SnapshotFile(path: path).read() == good)
        // The next write replaces the leftover and succeeds.
        var newer = Self.sample(messages: 40)
        newer.state.generation += 1
        try SnapshotFile(path: path).write(newer)
        #expect(try SnapshotFile(path: path).read() == newer)
        #expect(!FileManager.default.fileExists(atPath: path + ".tmp"))
    }

    @Test func aSymlinkDirectoryOrFIFOInPlaceOfTheSnapshotIsRefusedWithoutBlocking() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("elsewhere")
        try SnapshotFile(path: target).write(Self.sample())

        let link = directory.file("link.snapshot")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)
        #expect(throws: SnapshotError.notARegularFile(path: link, kind: "a symbolic link")) { try SnapshotFile(path: link).read() }

        let folder = directory.file("folder.snapshot")
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        #expect(throws: SnapshotError.notARegularFile(path: folder, kind: "a directory")) { try SnapshotFile(path: folder).read() }

        let fifo = directory.file("fifo.snapshot")
        #expect(mkfifo(fifo, 0o600) == 0)
        #expect(throws: SnapshotError.notARegularFile(path: fifo, kind: "a FIFO (named pipe)")) { try SnapshotFile(path: fifo).read() }

        #expect(throws: SnapshotError.missing(path: directory.file("none"))) { try SnapshotFile(path: directory.file("none")).read() }
    }

    @Test func writingOverASymlinkReplacesTheLinkInsteadOfWritingThroughIt() throws {
        let directory = TemporaryDirectory()
        let target = directory.file("victim")
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: target))
        let link = directory.file("timeline.snapshot")
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: target)

        try SnapshotFile(path: link).write(Self.sample())
        #expect(try String(contentsOfFile: target, encoding: .utf8) == "keep me")
        #expect(FileSystem.kind(at: link) == .regularFile)
        #expect(try SnapshotFile(path: link).read() == Self.sample())
    }

    /// Changes header fields and recomputes the header checksum, as a well-formed file of another
    /// version would have it.
    private func rewriteHeader(_ bytes: inout [UInt8], _ change: (inout [UInt8]) -> Void) {
        let contentLength = Int(bytes.readLittleEndianUInt32(at: 4))
        var content = Array(bytes[8 ..< 8 + contentLength - 4])
        change(&content)
        var crc: [UInt8] = []
        crc.appendLittleEndian(CRC32.checksum(content))
        bytes.replaceSubrange(8 ..< 8 + contentLength, with: content + crc)
    }
}
