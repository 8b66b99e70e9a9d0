// A Bluesky account's chats (issue 37): `chat.bsky.convo` through its PDS, read live.
extension BlueskyAccountSession: ChatSession {
    func conversations(limit: Int, in store: TimelineStore) async throws -> [Conversation] {
        try await client.get().conversations(limit: limit, account: account.name)
    }

    func markConversationRead(_ id: String, in store: TimelineStore) async throws {
        try await client.get().markChatRead(id)
    }

    func markChatRead(_ conversationID: String) async throws {
        try await client.get().markChatRead(conversationID)
    }

    func chatMessages(in conversationID: String, limit: Int) async throws -> [ChatMessage] {
        try await client.get().chatMessages(in: conversationID, limit: limit)
    }

    func sendChatMessage(_ text: String, to conversationID: String) async throws -> ChatMessage {
        try await client.get().sendChatMessage(text, to: conversationID)
    }
}
