#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// What `show` says, on a terminal, about where the timeline comes from: the next step on the
/// first day, and a failing or missing sync on every other. It goes to standard error and only
/// when standard output is a terminal: `--json`, `--format` and pipes carry messages only
/// (`timeline accounts` and `timeline doctor` report the same to a script).
enum SyncNotice {
    /// The line that ends a paint when an account's syncs need a person, from the small status
    /// file the syncs write: the database is not opened for it. At most `columns` wide (the
    /// terminal's), the server's words cut to fit.
    static func afterPaint(databasePath: String, now: Date, columns: Int?) -> String? {
        let gate = SyncGate(databasePath: databasePath)
        return SyncStatusFile(databasePath: databasePath).notice(at: now, syncJustStarted: gate.startedRecently(at: now), columns: columns)
    }

    /// What to do when there is no timeline yet, by what there is: no account (how to log in to
    /// each network; import last, for those without one), an account whose first sync is under
    /// way or failed, or one never synced.
    static func emptyTimeline(databasePath: String, now: Date) -> String {
        let accounts = (try? AccountStore.standard().accounts()) ?? []
        guard !accounts.isEmpty else {
            return """
                timeline: no timeline yet. Log in to your account, then run `timeline sync`:
                  timeline login mastodon example.social      (Mastodon, and servers speaking its API)
                  timeline login bluesky you.bsky.social      (Bluesky, with an app password)
                Or add messages from a file: timeline import FILE (JSON Lines, Mastodon, Twitter or Bluesky JSON).

                """
        }
        let gate = SyncGate(databasePath: databasePath)
        if let problem = SyncStatusFile(databasePath: databasePath).notice(at: now, syncJustStarted: false, columns: Terminal.windowSize()?.columns) {
            return problem + "\n"
        }
        if gate.startedRecently(at: now) {
            return "timeline: your first sync is under way; the next terminal shows your timeline, or wait for it here: timeline sync\n"
        }
        return "timeline: no timeline yet: run `timeline sync` to fetch it (the shell hook of `timeline init` syncs in the background).\n"
    }
}
