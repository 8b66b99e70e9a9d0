#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Keeps the syncs of one timeline single-flight and tells shell start-up, with one `stat`,
/// whether a sync is due.
///
/// Two files beside the database, named after it like the snapshot:
/// - `timeline.sqlite.sync-lock`: held (`flock`) for the whole of a sync, so ten terminals that
///   open together send one round of requests, not ten. The kernel drops it when the process
///   dies, so a killed sync never blocks the next one.
/// - `timeline.sqlite.last-sync`: empty; its modification time is the end of the last sync
///   that succeeded for every account. Reading it costs shell start-up one `stat`, where the
///   database would cost an open and a query.
///
/// ```swift
/// let gate = SyncGate(databasePath: location.databasePath)
/// switch try gate.run(ifOlderThan: .seconds(300), waitingAtMost: .zero, { (try syncEverything(), true) }) {
/// case .ran(let summary): print(summary)
/// case .notDue, .alreadyRunning: break
/// }
/// ```
public struct SyncGate: Sendable {
    /// The lock file held while a sync runs.
    public let lockPath: String
    /// The file whose modification time is the last successful sync.
    public let stampPath: String

    public init(databasePath: String) {
        lockPath = databasePath + ".sync-lock"
        stampPath = databasePath + ".last-sync"
    }

    /// Where a background sync's standard error goes (appended), since no terminal sees it.
    public var logPath: String { lockPath.dropLast("sync-lock".count) + "sync.log" }

    /// Starts `executable` with `arguments` (the first is its name) detached from this process
    /// and its terminal, standard error appended to ``logPath``, and returns at once. Creates the
    /// database's directory (0700) if it is missing, as the sync would.
    public func startInBackground(executable: String, arguments: [String]) throws {
        try createDirectory()
        do throws(ChildProcess.SpawnError) {
            try? FileSystem.touch(lockPath)
            try ChildProcess.spawnDetached(executable: executable, arguments: arguments, errorLog: logPath)
        } catch {
            throw Failure(reason: "cannot start a background sync (\(executable)): \(error.reason)")
        }
    }

    /// Creates the directory the lock, the stamp and the log live in (0700, as the store makes
    /// it), since a sync is about to write there: on the first day, after `timeline login`, the
    /// database does not exist yet and neither does its directory (the store creates nothing
    /// until its first commit).
    private func createDirectory() throws(Failure) {
        do throws(FileSystemError) {
            try FileSystem.createDirectories(FileSystem.parentDirectory(of: lockPath), permissions: 0o700)
        } catch {
            throw Failure(file: error)
        }
    }

    /// Whether a sync started less than two minutes before `now` (the lock file is touched as
    /// each one starts): the note that a timeline is stale waits for it.
    public func startedRecently(at now: Date = Date()) -> Bool {
        guard let started = FileSystem.modificationTime(at: lockPath) else { return false }
        return now.timeIntervalSince1970 - Double(started) < 120
    }

    /// When the last sync that succeeded for every account ended, to the second; `nil` if none has.
    public var lastSuccess: Date? {
        FileSystem.modificationTime(at: stampPath).map { Date(timeIntervalSince1970: Double($0)) }
    }

    /// Whether a sync is due: none has succeeded yet, or the last success is at least `age` ago.
    public func isDue(olderThan age: Duration, now: Date = Date()) -> Bool {
        guard let lastSuccess else { return true }
        return now.timeIntervalSince(lastSuccess) >= Double(age.components.seconds)
    }

    /// What ``run(ifOlderThan:waitingAtMost:_:)`` did.
    public enum Outcome<Value> {
        /// The body ran and returned this.
        case ran(Value)
        /// A sync succeeded less than the given age ago (checked again once the lock was held,
        /// so a sync that finished while this one waited counts).
        case notDue(lastSuccess: Date)
        /// Another process held the lock for longer than this one would wait.
        case alreadyRunning
    }

    /// Why the gate could not be used: its lock file could not be made or taken, or a
    /// background sync could not be started.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        /// What went wrong, naming the file or the program.
        public let reason: String

        init(file: FileSystemError) {
            reason = "\(file). Syncs keep their lock, time stamp and log beside the database: make that directory writable"
        }

        init(reason: String) {
            self.reason = reason
        }

        public var description: String { reason + "." }
    }

    /// Runs `body` holding the lock, unless a sync succeeded less than `age` ago (`nil`: always
    /// run) or another sync keeps the lock for longer than `wait` (`.zero`: do not wait; `nil`:
    /// wait as long as it takes). When `body` returns `succeeded: true` the stamp moves to now.
    public func run<Value, E: Error>(
        ifOlderThan age: Duration?,
        waitingAtMost wait: Duration?,
        _ body: () throws(E) -> (value: Value, succeeded: Bool)
    ) throws -> Outcome<Value> {
        if let age, !isDue(olderThan: age), let lastSuccess { return .notDue(lastSuccess: lastSuccess) }
        try createDirectory()
        let outcome: Outcome<Value>?
        do {
            outcome = try FileLock.withLock(lockPath, timeout: wait) { () throws(E) -> Outcome<Value> in
                // Again under the lock: a sync that ended while this one waited counts.
                if let age, !isDue(olderThan: age), let lastSuccess { return .notDue(lastSuccess: lastSuccess) }
                try? FileSystem.touch(lockPath)
                let result = try body()
                if result.succeeded { try? FileSystem.touch(stampPath) }
                return .ran(result.value)
            }
        } catch let .lock(error) {
            throw Failure(file: error)
        } catch let .body(error) {
            throw error
        }
        return outcome ?? .alreadyRunning
    }

    /// Runs `body` holding the lock, unless another process holds it now: then returns `nil`
    /// at once, since that sync stores what this one would fetch. A lock file that cannot be
    /// made does not stop the work: single flight saves requests, it is not what keeps the
    /// store right (each page is one transaction, and a status stored twice is one message).
    /// The stamp is left alone: `body` may be one account of several.
    func runUnlessBusy<T, E: Error>(_ body: () async throws(E) -> T) async throws(E) -> T? {
        let lock: FileLock?
        do {
            try createDirectory()
            lock = try FileLock.acquire(lockPath, timeout: .zero)
        } catch {
            return try await body()
        }
        guard let lock else { return nil }
        let value = try await body()
        _ = consume lock
        return value
    }
}
