/// The changes to a timeline as they are committed, by any process: an `AsyncSequence` of
/// `TimelineChanges`, one element each time the database's generation moves.
///
/// ```swift
/// let store = try TimelineStore(path: path)
/// let start = try store.makeSnapshot(limit: 50)
/// for try await changes in store.changes(since: start) {
///     for id in changes.inserted { print("new:", id) }
///     if !changes.removed.isEmpty { print("removed:", changes.removed) }
/// }
/// ```
///
/// Each element compares the window (the newest `limit` messages of the starting snapshot) with
/// the one before it: its `window` and `state` are the timeline now, its `inserted`, `updated`,
/// `removed`, `scrolledOut` and `scrolledIn` what moved since the previous element (or since the
/// starting snapshot, for the first). Writes that come in a burst between two checks arrive as one
/// element. A generation move that leaves the window alone yields an element whose `isEmpty` is
/// true, so a program can still see that counts or older messages changed.
///
/// **Cost and latency.** Where the system reports file writes (inotify, on Linux), the iterator
/// waits on a thread of its own for a write to the database or its write-ahead log, so a commit
/// arrives within about 20 ms (SQLite publishes it a moment after the write that woke the
/// iterator) and an idle database is checked only once a second, or once a `pollInterval` when
/// that is longer; this is the wake-up `timeline show -f` uses. Elsewhere it sleeps
/// `pollInterval` between checks. A check on an idle database reads one number from SQLite's
/// shared memory (see `TimelineChangeWatcher`).
///
/// **Ending.** Cancelling the iterating task ends the sequence at once (the sleep is cancelled;
/// `next()` returns `nil`). A database that stays locked by another process is checked again
/// on the next tick rather than ending the sequence; any other store error is thrown, which ends
/// the iteration.
///
/// **Isolation.** The iterator runs its checks, short synchronous SQLite reads (well under a
/// millisecond when nothing changed), on the isolation of the task that iterates.
public struct TimelineChangeSequence: AsyncSequence, Sendable {
    public typealias Element = TimelineChanges
    public typealias Failure = TimelineStoreError

    /// The store whose database is watched.
    public let store: TimelineStore
    /// What the first element is measured against.
    public let baseline: TimelineSnapshot
    /// How long the iterator sleeps between two checks where file writes are not reported; where
    /// they are, the longest sleep is this or a second, whichever is longer.
    public let pollInterval: Duration
    /// Whether to wait for reported file writes (tests turn it off to pin the timer alone).
    let notified: Bool

    /// See `TimelineStore.changes(since:pollInterval:)`.
    public init(store: TimelineStore, since baseline: TimelineSnapshot,
                pollInterval: Duration = TimelineChangeWatcher.defaultPollInterval) {
        self.init(store: store, since: baseline, pollInterval: pollInterval, notified: true)
    }

    init(store: TimelineStore, since baseline: TimelineSnapshot, pollInterval: Duration, notified: Bool) {
        self.store = store
        self.baseline = baseline
        self.pollInterval = pollInterval
        self.notified = notified
    }

    public func makeAsyncIterator() -> Iterator {
        Iterator(watcher: TimelineChangeWatcher(store: store, since: baseline),
                 wake: DatabaseWriteWake(databasePath: store.path, pollInterval: pollInterval, notified: notified))
    }

    /// Checks once at once (so changes already made since the baseline arrive without waiting),
    /// then after each reported write, or once every `pollInterval`.
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Element = TimelineChanges
        public typealias Failure = TimelineStoreError

        /// `nil` once the sequence has ended.
        private var watcher: TimelineChangeWatcher?
        private var wake: DatabaseWriteWake
        private var checkedOnce = false

        init(watcher: TimelineChangeWatcher, wake: DatabaseWriteWake) {
            self.watcher = watcher
            self.wake = wake
        }

        public mutating func next(
            isolation actor: isolated (any Actor)? = #isolation
        ) async throws(TimelineStoreError) -> TimelineChanges? {
            guard let watcher else { return nil }
            while true {
                if checkedOnce {
                    guard await wake.wait() else {
                        self.watcher = nil
                        return nil
                    }
                } else if Task.isCancelled {
                    self.watcher = nil
                    return nil
                }
                checkedOnce = true
                do throws(TimelineStoreError) {
                    if let changes = try watcher.check() { return changes }
                } catch {
                    if case .busy = error { continue }
                    self.watcher = nil
                    throw error
                }
            }
        }

        public mutating func next() async throws(TimelineStoreError) -> TimelineChanges? {
            try await next(isolation: nil)
        }
    }
}

extension TimelineStore {
    /// The changes committed to this database after `baseline`, by any process, as they happen.
    ///
    /// `baseline` is where to start: a snapshot read from the snapshot file (then the first element
    /// tells what changed since it was written), or `makeSnapshot(limit:)` for "from now on", with
    /// as many messages as the window should hold.
    ///
    /// ```swift
    /// let task = Task {
    ///     for try await changes in store.changes(since: try store.makeSnapshot(limit: 20)) {
    ///         render(changes.window)
    ///     }
    /// }
    /// // later: task.cancel() ends the loop within a moment
    /// ```
    public func changes(
        since baseline: TimelineSnapshot, pollInterval: Duration = TimelineChangeWatcher.defaultPollInterval
    ) -> TimelineChangeSequence {
        TimelineChangeSequence(store: self, since: baseline, pollInterval: pollInterval)
    }

    /// The changes committed from now on to the newest `windowSize` messages, by any process, as
    /// they happen: `changes(since: makeSnapshot(limit: windowSize))`.
    ///
    /// - Throws: a `TimelineStoreError` when the starting window cannot be read.
    public func changes(
        windowSize: Int = TimelineSnapshot.defaultLimit, pollInterval: Duration = TimelineChangeWatcher.defaultPollInterval
    ) throws(TimelineStoreError) -> TimelineChangeSequence {
        changes(since: try makeSnapshot(limit: windowSize), pollInterval: pollInterval)
    }
}
