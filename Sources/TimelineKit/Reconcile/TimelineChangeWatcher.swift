/// Tells, when asked, what changed in the database since the last answer: the synchronous engine
/// under `TimelineStore.changes(since:pollInterval:)`, for programs that run their own loop
/// (`timeline show --follow` asks it from a `poll(2)` loop and never starts async machinery).
///
/// ```swift
/// let watcher = TimelineChangeWatcher(store: store, since: try store.makeSnapshot(limit: 50))
/// while true {
///     if let changes = try watcher.check() { print(changes.inserted) }
///     usleep(100_000)
/// }
/// ```
///
/// **How it notices commits.** Every `check()` first reads SQLite's `PRAGMA data_version` on the
/// store's reader connection. That number moves whenever any other connection commits — another
/// `TimelineStore`, another process, the `sqlite3` shell — and in WAL mode it is read from the
/// shared-memory WAL index, so a check on an idle database reads no file and costs a few
/// microseconds. Only when it moved does the watcher read the one-row `timeline_state` (whose
/// generation triggers move on every change to messages or users) and, when the generation or
/// the database ID differs from the baseline's, one window with `TimelineStore.reconcile(_:)`.
/// The library polls rather than using file notifications because polling sees every writer
/// the same way on every platform and needs no descriptor per watcher; a program with its own
/// run loop can add notifications as a wake-up hint and call `check()` when they fire
/// (`show --follow` watches the database and its WAL with inotify on Linux). tools/bench stage 8
/// measures the cost.
///
/// Not `Sendable`: one loop owns a watcher. Many watchers can share one store.
public final class TimelineChangeWatcher {
    /// The store whose database is watched.
    public let store: TimelineStore
    /// What the last answer described (or the starting point): its state and window are what the
    /// next changes are measured against. Its `limit` is the window size.
    public private(set) var baseline: TimelineSnapshot
    /// `PRAGMA data_version` when the database was last compared with the baseline; `nil` before
    /// the first check, which always compares.
    private var lastDataVersion: Int64?

    /// A watcher of `store` that reports changes made after `baseline` was built: a snapshot read
    /// from the snapshot file, one from `TimelineStore.makeSnapshot(limit:)`, or the window and
    /// state of the last `TimelineChanges` shown. The first `check()` reports what already
    /// differs from it.
    public init(store: TimelineStore, since baseline: TimelineSnapshot) {
        self.store = store
        self.baseline = baseline
    }

    /// How often `TimelineStore.changes(since:pollInterval:)` checks by default: twice within the
    /// 200 ms a person reads as "at once", while costing a fraction of a millisecond of CPU a
    /// second when nothing happens.
    public static let defaultPollInterval: Duration = .milliseconds(100)

    /// What changed since the baseline, when the database's generation (or identity: a database
    /// replaced by another at the same path) moved; `nil` when nothing was committed or the
    /// commits changed nothing the generation counts. The answer becomes the new baseline.
    ///
    /// A change that leaves the window alone (an old message edited, a user renamed who is not
    /// shown) is still reported, with `isEmpty` true: the state moved.
    ///
    /// - Throws: `TimelineStoreError.busy` when another process holds the database exclusively
    ///   past the store's busy timeout (the baseline is kept: just check again later), or another
    ///   store error when the database cannot be read.
    public func check() throws(TimelineStoreError) -> TimelineChanges? {
        // Read before the state: a commit landing in between moves the version again, so the
        // next check looks once more and no commit is ever missed.
        let version = try store.dataVersion()
        if let lastDataVersion, lastDataVersion == version { return nil }
        let changes = try store.reconcile(baseline)
        lastDataVersion = version
        if !changes.databaseMoved { return nil }
        baseline = changes.snapshot(limit: baseline.limit)
        return changes
    }
}
