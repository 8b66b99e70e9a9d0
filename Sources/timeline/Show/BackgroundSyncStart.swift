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
/// 2. one `stat` of the accounts file: without an account there is nothing to sync;
/// 3. one `stat` of the sync lock: a sync started in the last two minutes (another terminal's,
///    or one that failed) is left alone, so ten terminals opened together start one;
/// 4. `timeline sync --db PATH --if-older AGE`, started detached (`posix_spawn`, a session of
///    its own, standard input and output on /dev/null, standard error appended to the
///    `.sync.log` beside the database) — the very process `sync --if-older AGE --background`
///    starts, which takes the lock without waiting and checks the stamp again under it.
///
/// Nothing here is said on the terminal: a sync that cannot start is the same as one that
/// failed, which the notice after the paint reports (`SyncNotice`).
enum BackgroundSyncStart {
    /// Starts the sync when it is due; whether it did (tests and the bench read the effect, the
    /// lock file's modification time and the log).
    @discardableResult
    static func startIfDue(databasePath: String, olderThan age: String, now: Date) -> Bool {
        guard let limit = AgeLimit(age) else { return false }
        let gate = SyncGate(databasePath: databasePath)
        guard gate.isDue(olderThan: .seconds(limit.seconds), now: now) else { return false }
        guard let accounts = try? AccountStore.standard(), accounts.hasAccountsFile else { return false }
        guard !gate.startedRecently(at: now) else { return false }
        let arguments = ["timeline", "sync", "--db", databasePath, "--if-older", age]
        do {
            try gate.startInBackground(executable: SyncCommand.ownExecutable, arguments: arguments)
            return true
        } catch {
            return false
        }
    }
}
