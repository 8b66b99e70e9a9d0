import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineFeeds
import TimelineKit

/// The feeds' part of `timeline sync` (issue 35): the library decides what is due and stores
/// what came (`FeedSync`); this says it. Kept apart from the accounts' part so that each can
/// change without the other.
extension SyncCommand {
    /// Whether this sync includes the feeds: every sync does, except one limited to an account.
    var includesFeeds: Bool { account == nil }

    /// Whether the timeline at `databasePath` has subscriptions (no database: none). Notes the
    /// answer for the shell hook (`FeedsMarker`).
    static func hasSubscriptions(databasePath: String) -> Bool {
        guard FileManager.default.fileExists(atPath: databasePath),
              let store = try? LocationOptions.openStore(at: databasePath, create: false),
              let all = try? FeedSubscriptions(store: store).all() else { return false }
        FeedsMarker.note(!all.isEmpty, databasePath: databasePath)
        return !all.isEmpty
    }

    /// Fetches the due feeds (all with --feeds-now, except those whose server asked to wait)
    /// into `store`; nil when there are no subscriptions.
    func syncFeeds(into store: TimelineStore) throws(ExitCode) -> FeedSyncSummary? {
        let fetchingAll = feedsNow
        let summary = try reportingErrors {
            try waitFor { () async throws -> FeedSyncSummary in
                try await FeedSync(store: store, fetcher: FeedFetcher(transport: CurlTransport())).run(fetchingAll: fetchingAll)
            }
        }
        FeedsMarker.note(!summary.outcomes.isEmpty, databasePath: store.path)
        return summary.outcomes.isEmpty ? nil : summary
    }

    /// The exit status of the worst feed failure, as a failed account's would be; nil when none failed.
    static func worstStatus(of feeds: FeedSyncSummary?) -> Int32? {
        feeds?.failures.map { exitStatus(for: $0.error) }.max()
    }

    /// Each failure on standard error, then one summary line (or, with --json, one object per
    /// subscription: `{"feed": name, "ok", "outcome": "fetched|unchanged|not_due|waiting|failed",
    /// "new_items", "edited_items", "error"}`).
    func reportFeeds(_ summary: FeedSyncSummary) {
        for (subscription, error) in summary.failures {
            // The feed's and its server's words are not ours: neutralised.
            Terminal.emitError("timeline: feed \(TerminalText.line(subscription.name)): \(TerminalText.line(error.description))\n")
        }
        if json {
            for outcome in summary.outcomes {
                var object = JSONObjectWriter()
                object.add("feed", outcome.subscription.name)
                let (word, new, edited, error): (String, Int, Int, String?) = switch outcome.kind {
                case let .fetched(new, edited): ("fetched", new, edited, nil)
                case .unchanged: ("unchanged", 0, 0, nil)
                case .notDue: ("not_due", 0, 0, nil)
                case .waiting: ("waiting", 0, 0, nil)
                case let .failed(failure): ("failed", 0, 0, failure.description)
                }
                object.add("ok", error == nil)
                object.add("outcome", word)
                object.add("new_items", new)
                object.add("edited_items", edited)
                object.add("error", error)
                Terminal.emit(object.finish() + "\n")
            }
            return
        }
        var line = "Feeds: \(summary.fetched) fetched (\(Counted(summary.newItems, "new item"))"
        if summary.editedItems > 0 { line += ", \(summary.editedItems) edited" }
        line += "), \(summary.unchanged) unchanged, \(summary.failed) failed"
        if summary.notAsked > 0 { line += "; \(summary.notAsked) not due" }
        Terminal.emit(line + ".\n")
    }
}
