import Synchronization

/// One sync of a follow (`show -f` with accounts): `run` holding the timeline's ``SyncGate``, or
/// left out while another process holds it (that sync stores what this one would fetch); a
/// temporary failure is let pass, since the next round tries again, and told to `health` once
/// (and once more when a round succeeds again).
///
/// - Throws: what `run` throws that trying again cannot cure (`.unauthorized`, `.store`, …).
func followRound(gate: SyncGate?, health: FollowHealth?, _ run: () async throws(ServerError) -> Void) async throws(ServerError) {
    do throws(ServerError) {
        if let gate {
            _ = try await gate.runUnlessBusy { () async throws(ServerError) in try await run() }
        } else {
            try await run()
        }
        health?.succeeded()
    } catch {
        guard error.isTemporary else { throw error }
        health?.failed(error)
    }
}

/// Whether a follow's rounds reach the server, said when it changes: a server that is down is
/// said once, not at every round, and its return is said too, so a person watching `show -f`
/// knows that nothing new may also mean nothing arrives.
public final class FollowHealth: Sendable {
    /// What changed.
    public enum Change: Sendable {
        /// A round failed after rounds that worked (or at the first round): this error.
        case failing(ServerError)
        /// A round worked after rounds that failed.
        case recovered
    }

    private let failing = Mutex(false)
    private let report: @Sendable (Change) -> Void

    /// Reports each change to `report`, from whichever task ran the round.
    public init(report: @escaping @Sendable (Change) -> Void) {
        self.report = report
    }

    func failed(_ error: ServerError) {
        let isNew = failing.withLock { failing in
            defer { failing = true }
            return !failing
        }
        if isNew { report(.failing(error)) }
    }

    func succeeded() {
        let wasFailing = failing.withLock { failing in
            defer { failing = false }
            return failing
        }
        if wasFailing { report(.recovered) }
    }
}
