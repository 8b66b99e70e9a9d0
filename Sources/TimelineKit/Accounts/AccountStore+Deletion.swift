extension Account {
    /// The stored ID of the account's own user (`mastodon.social/1234`, a Bluesky DID): the
    /// author of the posts it wrote.
    public var storedUserID: String {
        switch network {
        case .mastodon: (try? ServerAddress(server)).map { MastodonNamespace(server: $0).id(accountID) } ?? accountID
        case .bluesky: accountID
        }
    }
}

extension AccountStore {
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
        switch account.network {
        case .mastodon:
            let sync = try MastodonSync(store: store, account: account, token: try account.accessToken(), transport: transport)
            try await sync.deleteStatus(message.id)
        case .bluesky:
            let sync = BlueskySync(store: store, account: account.name, client: try blueskyClient(for: account, transport: transport))
            try await sync.deletePost(message.id)
        }
    }
}
