extension AccountStore {
    /// The session of `account` with its network: the one way the command line reaches a
    /// server for an account (see ``AccountSession``). Nothing is sent, and no token command is
    /// run, until a method of the session needs it; a session written back to this file when
    /// refreshed (Bluesky's) is read from it now.
    ///
    /// - Throws: `AccountError.invalidFile` when the account's entry lacks what its network
    ///   needs (a Bluesky account without a session).
    public func session(
        for account: Account, transport: any HTTPTransport, policy: RequestPolicy = RequestPolicy(), clock: SyncClock = .system
    ) throws(AccountError) -> any AccountSession {
        try account.network.makeSession(account, SessionContext(accounts: self, transport: transport, policy: policy, clock: clock))
    }

    /// The account among the logged-in ones that wrote `message`, if any.
    public func author(of message: Message) throws(AccountError) -> Account? {
        guard hasAccountsFile else { return nil }
        return try accounts().first { $0.storedUserID == message.authorID }
    }

    /// Deletes `message`, a post `account` wrote, at its server and then in `store`.
    ///
    /// - Throws: the account's errors (a token command that fails), the server's
    ///   (`ServerError`: refused, unreachable), `.store`.
    public func deleteAtServer(_ message: Message, of account: Account, in store: TimelineStore, transport: any HTTPTransport) async throws {
        try await session(for: account, transport: transport).deletePost(message.id, in: store)
    }
}
