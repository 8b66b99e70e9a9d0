#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A screen painted from a snapshot preview, brought up to date with the database: what to show
/// now and what changed. The answer of `TimelineStore.reconcile(_:atLeast:wholeWindow:)`.
public struct TimelineReconciliation: Sendable {
    /// The timeline to show now: the preview's head when the snapshot was fresh and the whole
    /// window was not asked for (the rest of the snapshot is then never decoded), else the
    /// database's window.
    public var window: TimelinePage
    /// What changed since the painted snapshot, `isEmpty` when nothing did; `nil` when there was
    /// no usable snapshot to compare with: then all of `window` is to be shown as new.
    public var changes: TimelineChanges?
    /// Whether the snapshot showed the database as it is (the same database, at the same
    /// generation): the paint is the truth, and the snapshot file needs no rewrite.
    public var isSnapshotFresh: Bool
    /// The database's state and whole window now: the baseline from which `TimelineChangeWatcher`
    /// reports later changes, and what `TimelineStore.writeSnapshot(reusing:)` writes without
    /// reading the window again. `nil` when the snapshot was fresh and the whole window was not
    /// asked for.
    public var snapshot: TimelineSnapshot?
    /// Why the preview was not used although there was one: a part of the window it stepped over
    /// does not decode, or the content checksum compared after the paint does not match (only a
    /// file crafted to pass the block checksums gets that far). The answer then comes from the
    /// database, as without a preview, and what was painted is to be replaced.
    public var snapshotProblem: SnapshotError?
}

extension TimelineStore {
    /// What a screen painted from `preview` shows once the database is asked, and what changed
    /// since: the decision `timeline show` makes after its first paint, in one read transaction
    /// that reads the database's state once.
    ///
    /// - When the database is at the preview's generation, the answer is the preview itself
    ///   (`isSnapshotFresh`, no changes), and nothing else is read; its content checksum is
    ///   compared (`SnapshotPreview.checkContent()`), and a mismatch answers as a rest that does
    ///   not decode (below).
    /// - Otherwise the whole snapshot is decoded and compared with the database's window of the
    ///   same size (`changes`: new, edited and removed messages).
    /// - Without a preview, or when its rest does not decode or its content checksum does not
    ///   match (`snapshotProblem`), the answer is
    ///   the newest `max(minimumWindow, TimelineSnapshot.defaultLimit)` messages, with no changes.
    ///
    /// ```swift
    /// let preview = try? store.snapshotFile.readPreview(messages: 20)
    /// if let preview { paint(preview.head) }              // before opening the database
    /// let answer = try store.reconcile(preview)
    /// if !answer.isSnapshotFresh {
    ///     repaint(answer.window, changes: answer.changes)   // changes is nil without a preview
    ///     try store.writeSnapshot(reusing: answer.snapshot)
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - preview: what was painted; `nil` when there was no usable snapshot. A preview that
    ///     cannot show as many messages as the screen wants (`SnapshotPreview.canShow(messages:)`)
    ///     is better left out.
    ///   - minimumWindow: how many messages the window read without a usable preview holds at
    ///     least. (With one, the window is the snapshot's size.)
    ///   - wholeWindow: answer with `snapshot` even when the preview is fresh, decoding the rest
    ///     of it: to follow the changes from here on (`show --follow`).
    public func reconcile(
        _ preview: SnapshotPreview?, atLeast minimumWindow: Int = 0, wholeWindow: Bool = false
    ) throws(TimelineStoreError) -> TimelineReconciliation {
        try read { reader throws(SQLiteError) -> TimelineReconciliation in
            let state = try reader.state()
            var problem: SnapshotError?
            if let preview {
                var completed: TimelineSnapshot?
                do throws(SnapshotError) {
                    if !wholeWindow, preview.isFresh(for: state) {
                        // The paint is the answer, once the one check left for after it holds.
                        try preview.checkContent()
                        return TimelineReconciliation(window: preview.head, changes: .none(since: preview.headSnapshot),
                                                      isSnapshotFresh: true, snapshot: nil, snapshotProblem: nil)
                    }
                    completed = try preview.complete()
                } catch {
                    problem = error
                }
                if let completed {
                    let changes = try TimelineChanges.since(completed, state: state, reader: reader)
                    return TimelineReconciliation(window: changes.window, changes: changes, isSnapshotFresh: !changes.databaseMoved,
                                                  snapshot: changes.snapshot(limit: completed.limit), snapshotProblem: nil)
                }
            }
            let limit = max(minimumWindow, TimelineSnapshot.defaultLimit)
            let window = try reader.page(limit: limit, after: nil)
            return TimelineReconciliation(window: window, changes: nil, isSnapshotFresh: false,
                                          snapshot: TimelineSnapshot(state: state, builtAt: Date(), limit: limit, window: window),
                                          snapshotProblem: problem)
        }
    }
}
