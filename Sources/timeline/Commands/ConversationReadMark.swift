import TimelineKit

/// `thread dm:bkd` of a conversation's last status marks the conversation read at its server
/// (issue 37): reading it is what Mastodon's "read" means. Only a conversation `timeline
/// conversations` listed as unread is marked (one request); nothing is queued when the server
/// cannot be reached: the conversation stays unread there, the next `conversations` says so,
/// and the next `thread` online marks it. One line on standard error says a failure.
enum ConversationReadMark {
    static func mark(_ reference: String, in store: TimelineStore) {
        guard let messageID = try? store.resolveMessageReferences([reference]).first,
              let conversation = try? store.conversation(ofMessage: messageID), conversation.isUnread else { return }
        let session: any ConversationSession
        do {
            let accountStore = try AccountStore.standard()
            guard let account = try accountStore.accounts().first(where: { $0.name == conversation.account }),
                  let found = try accountStore.session(for: account, transport: CurlTransport()) as? any ConversationSession else { return }
            session = found
        } catch {
            return
        }
        do {
            try waitFor { () async throws in try await session.markConversationRead(conversation.id, in: store) }
            // Recorded read, so the next `thread` sends nothing until `conversations` says otherwise.
            try store.recordConversations([Conversation(id: conversation.id, kind: .statuses, account: conversation.account,
                                                        isUnread: false, participants: [], lastMessageID: messageID)])
        } catch {
            Terminal.emitError("timeline: \(TerminalText.line(conversation.account)): the conversation stays unread at the server: \(error)\n")
        }
    }
}
