#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A snapshot read only as far as a first screen needs: its state and the first messages of its
/// window, ready to render, with the whole window one `complete()` away.
///
/// `timeline show` paints a screenful — a few of the window's hundreds of messages — and making
/// every message's strings was most of its work before the paint. The file is verified before
/// the preview is made (the header's CRC, every LZ4 block's checksum, the header against the
/// payload), but only the blocks the head is read from are decompressed; `checkContent()`
/// decompresses the rest after the paint and compares the LZ4 content checksum; `complete()`
/// checks it and decodes and checks all the rest exactly as `SnapshotFile.read()` does. An
/// answer built on the preview without completing it (a fresh snapshot) checks it too
/// (`TimelineStore.reconcile`, `unchangedReconciliation`).
///
/// ```swift
/// let preview = try SnapshotFile(path: path).readPreview(messages: 20)
/// paint(preview.head)                         // the first 20 messages, their users
/// let answer = try store.reconcile(preview)  // what to show now, and what changed
/// ```
public struct SnapshotPreview: Sendable {
    /// The state of the database the snapshot was built from.
    public var state: TimelineState { headSnapshot.state }
    /// When the snapshot was built.
    public var builtAt: Date { headSnapshot.builtAt }
    /// How many messages the window was built to hold.
    public var limit: Int { headSnapshot.limit }
    /// The window's first messages (as many as were asked for, or all there are), the messages
    /// they repost or quote, and the users those show. `nextCursor` is the window's own: whether
    /// the database held more than the window when the snapshot was built.
    public var head: TimelinePage { headSnapshot.window }
    /// How many messages the whole window holds.
    public let windowMessageCount: Int

    /// The snapshot with `head` as its window.
    let headSnapshot: TimelineSnapshot
    /// Where the window's messages after the head start in `payload`.
    let restOffset: Int
    /// The payload's frame, decompressed as far as the preview read.
    let frame: LZ4FrameDecoder
    let header: SnapshotHeader
    let path: String

    /// Whether `head` is the whole window.
    public var isWholeWindow: Bool { head.messages.count == windowMessageCount }

    /// Whether the snapshot can answer for the newest `count` messages: its window holds that
    /// many, or all that the database held when it was built. One that cannot is no paint for a
    /// request of `count` (`show -n 500` over a window of 200): read the database instead.
    public func canShow(messages count: Int) -> Bool {
        count <= windowMessageCount || head.nextCursor == nil
    }

    /// Whether the snapshot describes `state`: the same database at the same generation.
    public func isFresh(for state: TimelineState) -> Bool {
        headSnapshot.isFresh(for: state)
    }

    /// Decompresses what the preview did not read and compares the LZ4 frame's content checksum,
    /// the checks of a full read the preview left for after the paint (`SnapshotFile.decodePreview`).
    /// Every block's checksum passed before the preview was made, so this fails only for a
    /// decompressor at fault or a file crafted to pass the block checksums; what was painted is
    /// then not to be trusted: read the database.
    ///
    /// - Throws: `SnapshotError.corrupt`.
    public func checkContent() throws(SnapshotError) {
        do throws(LZ4FrameError) {
            try frame.finish()
        } catch {
            throw SnapshotFile.payloadProblem(error, path: path)
        }
        guard frame.isIntact else {
            throw .corrupt(path: path, reason: "payload: the LZ4 content checksum does not match")
        }
    }

    /// The whole snapshot, decoded and checked as `SnapshotFile.read()` does; the head's
    /// messages are not decoded again.
    ///
    /// - Throws: `SnapshotError.corrupt` when a part the preview stepped over does not decode
    ///   (only a file crafted to pass the checksums can get that far).
    public func complete() throws(SnapshotError) -> TimelineSnapshot {
        try SnapshotFile.decodeRemainder(of: self)
    }
}
