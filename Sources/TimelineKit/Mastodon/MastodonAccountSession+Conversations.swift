// A Mastodon account's conversations (issue 37): its direct statuses grouped by participants.
extension MastodonAccountSession: ConversationSession {
    func conversations(limit: Int, in store: TimelineStore) async throws -> [Conversation] {
        try await mastodonSync(store).conversations(limit: limit)
    }

    func markConversationRead(_ id: String, in store: TimelineStore) async throws {
        try await mastodonSync(store).markConversationRead(id)
    }
}
