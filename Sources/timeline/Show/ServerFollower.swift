import Synchronization
import TimelineKit

/// `show --follow` with accounts logged in: each account's server feeds the database while
/// `FollowLoop` paints what is stored, exactly as it paints any other writer's commits. Per
/// account, its session's `follow` syncs, then (Mastodon) listens to the user's event stream (new statuses,
/// edits, deletions, notifications), reconnecting with back-off and syncing again to fill what a
/// disconnection missed; where the server does not stream (Takahē) it syncs every 30 seconds
/// and says so once. What
/// arrives is stored, so every other terminal's `show` sees it too.
///
/// The accounts run as tasks on the cooperative pool, never on the loop's thread, each with a
/// `TimelineStore` of its own (the loop's stays on the loop's thread). They never write to the
/// terminal themselves: the loop owns it, and a note written while it repaints would tear the
/// block. What they have to say waits in `notes` and wakes the loop through `FollowSignals`'
/// pipe; the loop prints it.
///
/// Plain `show`, and `show -f` without an accounts file, never get here: they read no accounts
/// file and start no task.
final class ServerFollower: Sendable {
    private let tasks: Mutex<[Task<Void, Never>]> = Mutex([])
    private let pending: Mutex<[String]> = Mutex([])

    /// Starts following every account in the accounts file for the database at `databasePath`;
    /// `nil` when there is no accounts file or it lists none. A file that cannot be read is worth
    /// a note (returned in `notes`), not the end of following the database.
    static func start(databasePath: String) -> ServerFollower? {
        // Without a configuration directory (no HOME) nobody can have logged in: nothing to say.
        guard let store = try? AccountStore.standard(), store.hasAccountsFile else { return nil }
        let accounts: [Account]
        let follower = ServerFollower()
        do throws(AccountError) {
            accounts = try store.accounts()
        } catch {
            follower.note("timeline: not following your accounts: \(error)")
            return follower
        }
        if accounts.isEmpty { return nil }
        let gate = SyncGate(databasePath: databasePath)
        let started = accounts.map { account in
            Task.detached { await follower.follow(account, from: store, databasePath: databasePath, gate: gate) }
        }
        follower.tasks.withLock { $0 = started }
        return follower
    }

    /// The notes waiting to be printed, oldest first; taking them empties the list.
    func takeNotes() -> [String] {
        pending.withLock { notes in
            defer { notes = [] }
            return notes
        }
    }

    /// Ends every account's follow: their requests stop (curl is killed and reaped) and this
    /// returns once each has ended, so no child process outlives `show`.
    func stop() {
        let running = tasks.withLock { $0 }
        for task in running { task.cancel() }
        waitFor { () async -> Void in
            for task in running { await task.value }
        }
    }

    private func follow(_ account: Account, from accounts: AccountStore, databasePath: String, gate: SyncGate) async {
        let name = TerminalText.line(account.name)
        // A server that stops answering is said once, and its return once: `show -f` would
        // otherwise look the same whether nothing is new or nothing can arrive.
        let health = FollowHealth { [self] change in
            switch change {
            // The error is a sentence of its own, brackets and full stop included: said after
            // the note, never inside brackets of ours (issue 37: `(… (it answered 404).);`).
            case let .failing(error): note("timeline: \(name): cannot reach the server; still trying. \(error)")
            case .recovered: note("timeline: \(name): the server answers again.")
            }
        }
        do {
            let store = try TimelineStore(path: databasePath, configuration: .init(
                createIfMissing: false, busyTimeout: .seconds(5)))
            let session = try accounts.session(for: account, transport: CurlTransport())
            // A source that does not follow live is said once, and its account left to `sync`.
            if let refusal = session.refusal(of: .live) { return note("timeline: \(name): \(refusal)") }
            // Actions that waited for the server go first, as `timeline sync` sends them
            // (issue 27); one the server refuses is said, as the sync says it.
            for refusal in await session.sendPendingActions(in: store, gate: gate)?.refused ?? [] {
                note("timeline: \(name): the server refused to \(refusal.action.action.rawValue) \(TerminalText.line(refusal.action.messageID)), asked for while it could not be reached: \(TerminalText.line(refusal.reason)) It is no longer pending.")
            }
            try await session.follow(into: store, gate: gate, health: health, onPolling: { [self] reason, interval in
                note("timeline: \(name): the server does not stream new posts; checking for them every \(interval.components.seconds) seconds instead. \(reason)")
            })
        } catch ServerError.cancelled {
            return
        } catch {
            if Task.isCancelled { return }
            note("timeline: \(name): stopped following the server: \(error)")
        }
    }

    private func note(_ text: String) {
        pending.withLock { $0.append(text + "\n") }
        FollowSignals.wake()
    }
}
