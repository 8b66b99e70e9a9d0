/// One sync of a follow (`show -f` with accounts): `run` holding the timeline's ``SyncGate``, or
/// left out while another process holds it (that sync stores what this one would fetch); a
/// temporary failure is let pass, since the next round tries again.
///
/// - Throws: what `run` throws that trying again cannot cure (`.unauthorized`, `.store`, …).
func followRound(gate: SyncGate?, _ run: () async throws(ServerError) -> Void) async throws(ServerError) {
    do throws(ServerError) {
        if let gate {
            _ = try await gate.runUnlessBusy { () async throws(ServerError) in try await run() }
        } else {
            try await run()
        }
    } catch {
        guard error.isTemporary else { throw error }
    }
}
