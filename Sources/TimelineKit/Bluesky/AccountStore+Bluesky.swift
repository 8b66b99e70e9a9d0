extension AccountStore {
    /// A client of the Bluesky account `account` (stored by `timeline login bluesky`), whose
    /// refreshed sessions are written back to this file at once: a refresh retires the old
    /// refresh token, so the next run needs the new one.
    ///
    /// - Throws: `AccountError.invalidFile` when `account` is not a Bluesky account with a
    ///   session, or its server address is unusable.
    public func blueskyClient(
        for account: Account, transport: any HTTPTransport, policy: RequestPolicy = RequestPolicy(), clock: SyncClock = .system
    ) throws(AccountError) -> BlueskyClient {
        guard account.network == .bluesky, case let .session(stored) = account.secret else {
            throw .invalidFile(path: path, reason: "\(account.name) is not a Bluesky account with a session; log in again with timeline login bluesky")
        }
        let service: ServerAddress
        do throws(ServerError) {
            service = try ServerAddress(account.server)
        } catch {
            throw .invalidFile(path: path, reason: "\(account.name): \(error)")
        }
        let session = BlueskySession(did: account.accountID, handle: account.acct, accessToken: stored.accessToken,
                                     refreshToken: stored.refreshToken, pds: stored.service)
        let store = self
        return BlueskyClient(service: service, session: session, transport: transport, policy: policy, clock: clock) { renewed in
            // If this write fails, the next run's refresh is refused and asks for a new login:
            // nothing is lost but the session.
            var updated = account
            updated.secret = .session(renewed.renewable)
            updated.acct = renewed.handle
            _ = try? store.save(updated)
        }
    }
}
