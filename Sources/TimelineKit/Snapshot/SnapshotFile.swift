#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A snapshot file on disk: `SnapshotHeader`, then the `TimelineSnapshot` encoded with
/// `BinaryEncoder` in one standard LZ4 frame (`lz4 -dc FILE` prints the encoded payload).
///
/// Reading never touches the database. Every damaged, truncated, foreign or newer file is refused
/// with a `SnapshotError` that says which, never a crash and never wrong data. Writing replaces the
/// file atomically, private to its owner (0600).
public struct SnapshotFile: Sendable {
    /// Where the snapshot lives.
    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// The snapshot path that belongs to a database: beside it, named after it, with the extension
    /// `.snapshot` (`timeline.sqlite` → `timeline.snapshot`; `data.db` → `data.snapshot`;
    /// `timeline` → `timeline.snapshot`).
    public static func path(forDatabaseAt databasePath: String) -> String {
        let slash = databasePath.lastIndex(of: "/")
        let nameStart = slash.map { databasePath.index(after: $0) } ?? databasePath.startIndex
        if let dot = databasePath[nameStart...].lastIndex(of: "."), dot > nameStart {
            // `String(…)` first: `Substring + String` is the generic `+` of two sequences, whose
            // first use makes the runtime scan every protocol conformance in the binary
            // (130,000 instructions of `show`'s launch).
            return String(databasePath[..<dot]) + ".snapshot"
        }
        return databasePath + ".snapshot"
    }

    /// The largest file accepted: the largest payload, allowing for LZ4's worst-case expansion.
    static let maximumFileSize = SnapshotHeader.maximumPayloadLength + SnapshotHeader.maximumPayloadLength / 64 + 4096

    /// Reads and verifies the whole snapshot.
    public func read() throws(SnapshotError) -> TimelineSnapshot {
        try Self.decode(readBytes(), path: path)
    }

    /// Reads and verifies only the header: which database and generation the snapshot was built
    /// from. Enough to tell whether it is fresh.
    public func readHeader() throws(SnapshotError) -> SnapshotHeader {
        try SnapshotHeader.decode(readBytes(), path: path).header
    }

    /// Writes `snapshot` over the file atomically: a crash at any moment leaves the old snapshot
    /// or the new one, never a torn file. The caller serialises writers (`TimelineStore` holds a
    /// lock file while it writes), so an older snapshot never replaces a newer one.
    public func write(_ snapshot: TimelineSnapshot) throws(SnapshotError) {
        let bytes = try Self.encode(snapshot, path: path)
        do throws(FileSystemError) {
            try FileSystem.replaceAtomically(path, with: bytes, temporaryPath: path + ".tmp", permissions: 0o600)
        } catch {
            throw .notWritten(path: path, reason: error.description)
        }
    }

    /// The file's bytes for `snapshot`.
    public static func encode(_ snapshot: TimelineSnapshot, path: String = "snapshot") throws(SnapshotError) -> [UInt8] {
        let payload = BinaryEncoder().encode(snapshot)
        let frame: [UInt8]
        do throws(LZ4FrameError) {
            frame = try LZ4Frame.compress(payload)
        } catch {
            throw .notWritten(path: path, reason: "\(error)")
        }
        let header = SnapshotHeader(
            formatVersion: TimelineSnapshot.formatVersion, payloadLength: payload.count,
            generation: snapshot.state.generation, limit: snapshot.limit, databaseID: snapshot.state.databaseID)
        return header.encoded() + frame
    }

    /// Verifies and decodes a snapshot file's bytes. `path` is only used in errors.
    public static func decode(_ file: [UInt8], path: String = "snapshot") throws(SnapshotError) -> TimelineSnapshot {
        let (header, payload) = try verifiedPayload(of: file, path: path)
        return try decodePayload(payload, header: header, path: path)
    }

    /// Reads and verifies the file, and decodes its state and the first `messages` messages of
    /// its window (see `SnapshotPreview`): what the first screen of `timeline show` needs.
    public func readPreview(messages: Int) throws(SnapshotError) -> SnapshotPreview {
        try Self.decodePreview(readBytes(), messages: messages, path: path)
    }

    /// `readPreview(messages:)` of a snapshot file's bytes. `path` is only used in errors.
    ///
    /// The file's whole structure is checked before the preview is returned: the header's CRC,
    /// the LZ4 frame's header, and every block's checksum, so no damaged byte reaches the
    /// preview. Only the blocks the preview reads are decompressed (`LZ4FrameDecoder`); the rest,
    /// and the frame's content checksum, are left for after the paint
    /// (`SnapshotPreview.checkContent()`, `complete()`).
    public static func decodePreview(_ file: [UInt8], messages count: Int, path: String = "snapshot") throws(SnapshotError) -> SnapshotPreview {
        let (header, payloadOffset) = try verifiedHeader(of: file, path: path)
        let frame: LZ4FrameDecoder
        do throws(LZ4FrameError) {
            frame = try LZ4FrameDecoder.open(file[payloadOffset...], maxContentSize: header.payloadLength)
        } catch {
            throw payloadProblem(error, path: path)
        }
        guard frame.contentSize == header.payloadLength else {
            throw .corrupt(path: path, reason: "payload is \(frame.contentSize) bytes, the header says \(header.payloadLength)")
        }
        let preview: SnapshotPreview
        do {
            preview = try frame.withContent { (buffer) throws(BinaryDecodingError) -> SnapshotPreview in
                let reader = BinaryReader(buffer, ready: frame.produced, more: { frame.decompress(upTo: $0) })
                // The memory is the frame's, which may go before the reader: nothing reads it afterwards.
                defer { reader.invalidate() }
                let (snapshot, count, restOffset) = try SnapshotPreviewReader.read(from: reader, messages: count)
                return SnapshotPreview(windowMessageCount: count, headSnapshot: snapshot, restOffset: restOffset,
                                       frame: frame, header: header, path: path)
            }
        } catch {
            // A block that would not decompress ends the bytes early: that, not the end, is the fault.
            if let failure = frame.failure { throw payloadProblem(failure, path: path) }
            throw .corrupt(path: path, reason: "payload does not decode: \(error)")
        }
        try check(preview.headSnapshot, against: header, path: path)
        return preview
    }

    /// The whole snapshot of a preview (see `SnapshotPreview.complete()`).
    static func decodeRemainder(of preview: SnapshotPreview) throws(SnapshotError) -> TimelineSnapshot {
        try preview.checkContent()
        let snapshot: TimelineSnapshot
        do {
            snapshot = try preview.frame.withContent { (buffer) throws(BinaryDecodingError) -> TimelineSnapshot in
                try BinaryDecoder().decodeWithReader(from: buffer) { reader throws(BinaryDecodingError) in
                    try SnapshotRemainderReader.read(from: reader, head: preview.head.messages, restOffset: preview.restOffset)
                }
            }
        } catch {
            throw .corrupt(path: preview.path, reason: "payload does not decode: \(error)")
        }
        try check(snapshot, against: preview.header, path: preview.path)
        return snapshot
    }

    /// The file's header and its payload, decompressed and checked against the header.
    private static func verifiedPayload(of file: [UInt8], path: String) throws(SnapshotError) -> (SnapshotHeader, [UInt8]) {
        let (header, payloadOffset) = try verifiedHeader(of: file, path: path)
        let payload: [UInt8]
        do throws(LZ4FrameError) {
            payload = try LZ4Frame.decompress(file[payloadOffset...], maxContentSize: header.payloadLength)
        } catch {
            throw payloadProblem(error, path: path)
        }
        guard payload.count == header.payloadLength else {
            throw .corrupt(path: path, reason: "payload is \(payload.count) bytes, the header says \(header.payloadLength)")
        }
        return (header, payload)
    }

    /// The file's header, and where its payload's frame starts.
    private static func verifiedHeader(of file: [UInt8], path: String) throws(SnapshotError) -> (SnapshotHeader, Int) {
        let (header, payloadOffset) = try SnapshotHeader.decode(file, path: path)
        // Only this library writes snapshots, always with the same frame flags: anything else is
        // damage, even where LZ4's one-byte header checksum happens to miss it.
        let flags = file.dropFirst(payloadOffset + 4).prefix(2)
        if flags.count == 2, !flags.elementsEqual(LZ4Frame.descriptorFlags) {
            throw .corrupt(path: path, reason: "unexpected LZ4 frame flags")
        }
        return (header, payloadOffset)
    }

    /// What a payload's frame that cannot be read is to a snapshot's reader.
    static func payloadProblem(_ error: LZ4FrameError, path: String) -> SnapshotError {
        if case .truncated = error { return .truncated(path: path) }
        return .corrupt(path: path, reason: "payload: \(error)")
    }

    /// Decodes a verified payload and checks it against its header.
    static func decodePayload(_ payload: [UInt8], header: SnapshotHeader, path: String) throws(SnapshotError) -> TimelineSnapshot {
        let snapshot: TimelineSnapshot
        do {
            snapshot = try BinaryDecoder().decode(TimelineSnapshot.self, from: payload)
        } catch {
            throw .corrupt(path: path, reason: "payload does not decode: \(error)")
        }
        try check(snapshot, against: header, path: path)
        return snapshot
    }

    /// Checks what was decoded (the whole snapshot, or a preview's with only the head in its
    /// window) against the header.
    private static func check(_ snapshot: TimelineSnapshot, against header: SnapshotHeader, path: String) throws(SnapshotError) {
        let state = snapshot.state, builtAt = snapshot.builtAt, limit = snapshot.limit
        let shown = snapshot.window.messages + snapshot.window.related
        guard state.generation == header.generation, state.databaseID == header.databaseID, limit == header.limit else {
            throw .corrupt(path: path, reason: "header and payload disagree on database or generation")
        }
        // The checksums catch damage, not a file crafted to pass them: values no database can
        // hold are refused too, so they never reach the screen as wrong data (found by fuzzing).
        let timesAreFinite = builtAt.timeIntervalSinceReferenceDate.isFinite
            && shown.allSatisfy { message in
                message.createdAt.timeIntervalSinceReferenceDate.isFinite
                    && (message.editedAt?.timeIntervalSinceReferenceDate.isFinite ?? true)
            }
        guard state.messageCount >= 0, state.unreadCount >= 0, state.userCount >= 0, !state.databaseID.isEmpty,
              limit >= 0, timesAreFinite else {
            throw .corrupt(path: path, reason: "impossible values (a negative count, an empty database ID or a time that is not finite)")
        }
    }

    private func readBytes() throws(SnapshotError) -> [UInt8] {
        do throws(FileSystem.ReadFailure) {
            return try FileSystem.readRegularFile(at: path, limit: Self.maximumFileSize)
        } catch {
            switch error {
            case let .system(failure) where failure.isNotFound: throw .missing(path: path)
            case let .system(failure): throw .unreadable(path: path, reason: failure.description)
            case let .notRegularFile(kind): throw .notARegularFile(path: path, kind: kind.description)
            case let .tooLarge(size, limit): throw .tooLarge(path: path, size: size, limit: limit)
            }
        }
    }
}
