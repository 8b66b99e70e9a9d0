#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// `show --sync-if-older AGE`: the shell hook's `show` starts the background sync itself, so a
/// new terminal runs one `timeline` process in the foreground, not a `sync --if-older
/// --background` (an ArgumentParser launch, 13 M instructions) before every `show`.
///
/// What it costs, in order, stopping at the first that says no:
/// 1. one `stat` of the sync stamp (`SyncGate.stampPath`): a sync that succeeded less than AGE
///    ago means nothing is due, the case of almost every terminal;
/// 2. one `stat` of the accounts file, and one of the feeds marker (`FeedsMarker`) when there is
///    none: without an account or a feed there is nothing to sync;
/// 3. one `stat` of the sync lock: a sync started in the last two minutes (another terminal's,
///    or one that failed) is left alone, so ten terminals opened together start one;
/// 4. `timeline sync --db PATH --if-older AGE --detached`, started detached (`posix_spawn`, a
///    session of its own, standard input and output on /dev/null, standard error appended to
///    the `.sync.log` beside the database) — the very process `sync --if-older AGE --background`
///    starts, which takes the lock without waiting and checks the stamp again under it.
///
/// The child's first act, before its arguments are parsed (`main.swift`), is to yield: it lowers
/// its priority by ``detachedNiceness`` and waits ``detachedDelay``. Without it, its start
/// (ArgumentParser, the store, the first requests) ran on the second of two cores while the
/// shell that had just run `show` was still on its way to the prompt: +1 ms to a stale start
/// (docs/benchmarks.md, stage 14). A background sync finishing 50 ms later is not noticed.
///
/// Nothing here is said on the terminal: a sync that cannot start is the same as one that
/// failed, which the notice after the paint reports (`SyncNotice`).
enum BackgroundSyncStart {
    /// The argument that tells a `sync` it was started detached (`--background`, the shell
    /// hook's `show`): it yields before anything else (``yieldIfDetached(_:)``).
    static let detachedFlag = "--detached"
    /// How much a detached sync lowers its CPU priority.
    static let detachedNiceness: Int32 = 10
    /// How long a detached sync waits before it starts its work: longer than a shell takes from
    /// the hook's `show` to its prompt (fish, the slowest, a few ms on a quiet machine).
    static let detachedDelay: Duration = .milliseconds(50)

    /// Whether `arguments` (without the program's name) are a detached `sync`'s.
    static func isDetachedSync(_ arguments: ArraySlice<String>) -> Bool {
        arguments.first == "sync" && arguments.contains(detachedFlag)
    }

    /// In a detached sync, yields to the shell that started it; elsewhere does nothing.
    static func yieldIfDetached(_ arguments: ArraySlice<String>) {
        guard isDetachedSync(arguments) else { return }
        ChildProcess.yieldToForeground(niceness: detachedNiceness, delay: detachedDelay)
    }

    /// Starts the sync when it is due; whether it did (tests and the bench read the effect, the
    /// lock file's modification time and the log).
    @discardableResult
    static func startIfDue(databasePath: String, olderThan age: String, now: Date) -> Bool {
        guard let limit = AgeLimit(age) else { return false }
        let gate = SyncGate(databasePath: databasePath)
        guard gate.isDue(olderThan: .seconds(limit.seconds), now: now) else { return false }
        let hasAccounts = (try? AccountStore.standard())?.hasAccountsFile ?? false
        guard hasAccounts || FeedsMarker.exists(databasePath: databasePath) else { return false }
        guard !gate.startedRecently(at: now) else { return false }
        let arguments = ["timeline", "sync", "--db", databasePath, "--if-older", age, detachedFlag]
        do {
            try gate.startInBackground(executable: SyncCommand.ownExecutable, arguments: arguments)
            return true
        } catch {
            return false
        }
    }
}
