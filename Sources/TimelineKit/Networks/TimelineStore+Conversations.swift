// Which conversation a stored last status stands for (issue 37), kept beside the statuses in
// the conversations' database as source states (no table of its own): `thread` of it then marks
// that conversation read at its account's server.

extension TimelineStore {
    /// The source-state name the conversations are kept under.
    static let conversationsState = MessageSource(unchecked: "conversations")

    /// Records, in one transaction, which conversation each of `conversations`' last statuses
    /// stands for and whether it was unread, replacing what was recorded for them before.
    /// Conversations without a stored last status (a chat) are not recorded.
    public func recordConversations(_ conversations: [Conversation]) throws {
        try write { transaction in
            for conversation in conversations {
                guard let messageID = conversation.lastMessageID else { continue }
                var json: [UInt8] = Array("{\"account\":".utf8)
                JSONLineEncoder.appendString(conversation.account, to: &json)
                json += Array(",\"id\":".utf8)
                JSONLineEncoder.appendString(conversation.id, to: &json)
                json += Array(",\"unread\":\(conversation.isUnread)}".utf8)
                try transaction.setSourceState(String(decoding: json, as: UTF8.self), of: Self.conversationsState, key: messageID)
            }
        }
    }

    /// The conversation whose last status is the stored message `messageID`, as
    /// ``recordConversations(_:)`` recorded it: its account's name, its ID at the server and
    /// whether it was unread when listed; `nil` when none was recorded.
    public func conversation(ofMessage messageID: String) throws(TimelineStoreError) -> (account: String, id: String, isUnread: Bool)? {
        guard let json = try sourceStates(of: Self.conversationsState)[messageID],
              let node = try? JSONNode(parsing: Array(json.utf8)),
              let account = node["account"]?.stringValue, let id = node["id"]?.stringValue else { return nil }
        var unread = false
        if case let .bool(value)? = node["unread"]?.value { unread = value }
        return (account, id, unread)
    }
}
