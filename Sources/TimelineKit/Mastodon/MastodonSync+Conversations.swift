#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Issue 37's conversations: `GET /api/v1/conversations` lists the account's direct statuses
// grouped by participants ({id, unread, accounts[], last_status}), newest first, paged by the
// `Link` header as the timelines are. Each last status is stored, so that the reference painted
// for it is a message every command takes (`thread`, `post --reply-to`, `open`).

extension MastodonSync {
    /// The account's conversations, newest first: pages of at most 40 below the `Link` header's
    /// `max_id`, at most `limit` conversations (held to ``Conversation/maximumListed``) in at
    /// most `limit / 20 + 2` requests. Each one's last status is stored (unread; its author and
    /// what it embeds with it), in one transaction per page. A conversation the decoder cannot
    /// read is left out, as a timeline page leaves out a status. A server without the endpoint is
    /// `.serverLacks` naming it.
    public func conversations(limit: Int) async throws(ServerError) -> [Conversation] {
        let limit = max(1, min(limit, Conversation.maximumListed))
        var conversations: [Conversation] = []
        var cursor: String?
        var requests = 0
        while conversations.count < limit, requests < limit / 20 + 2 {
            requests += 1
            let wanted = min(40, limit - conversations.count)
            var query = [(name: "limit", value: String(wanted))]
            if let cursor { query.append((name: "max_id", value: cursor)) }
            let url = client.server.url("/api/v1/conversations", query: query)
            let response = try await client.send(.get, url, feature: "conversations", endpoint: "GET /api/v1/conversations")
            let (page, timeline, answered) = try readConversations(response, from: url, limit: wanted)
            let stored = page.compactMap(\.lastMessageID)
            _ = try pager.storeThread(timeline, entryIDs: stored, markingRead: false)
            conversations += page
            // A page shorter than asked is the end, as on a timeline.
            if answered < wanted { break }
            guard let next = FetchedPage.olderCursor(response, url: url, lastEntry: nil), next != cursor else { break }
            cursor = next
        }
        return Array(conversations.prefix(limit))
    }

    /// Marks the conversation `id` read (`POST /api/v1/conversations/:id/read`). A server
    /// without the endpoint is `.serverLacks` naming it.
    public func markConversationRead(_ id: String) async throws(ServerError) {
        let url = client.server.url("/api/v1/conversations/" + FormEncoding.escape(id) + "/read")
        _ = try await client.send(.post, url, feature: "marking conversations read", endpoint: "POST /api/v1/conversations/:id/read")
    }

    /// One page: its conversations (at most `limit`), the statuses they hold (namespaced) and
    /// how many elements the answer had.
    private func readConversations(
        _ response: HTTPResponse, from url: String, limit: Int
    ) throws(ServerError) -> ([Conversation], DecodedTimeline, answered: Int) {
        let decoder = MastodonDecoder(overlongText: .cut, filterContext: "home")
        let namespace = namespace, ownUserID = ownUserID, accountName = account
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            let elements = try document.elements(expected: "an array of conversations")
            var timeline = DecodedTimeline()
            var conversations: [Conversation] = []
            for (index, element) in elements.prefix(limit).enumerated() {
                var entry = DecodedTimeline()
                guard let conversation = try? Self.conversation(element, index: index, decoder: decoder, into: &entry,
                                                                 namespace: namespace, ownUserID: ownUserID, account: accountName)
                else { continue }
                timeline.add(contentsOf: namespace.apply(to: entry))
                conversations.append(conversation)
            }
            return (conversations, timeline, elements.count)
        }
    }

    private static func conversation(
        _ element: JSONNode, index: Int, decoder: MastodonDecoder, into timeline: inout DecodedTimeline,
        namespace: MastodonNamespace, ownUserID: String?, account: String
    ) throws(JSONLineFailure) -> Conversation {
        let view = try JSONObjectView(element, path: "[\(index)]", expected: "a conversation object")
        let id = try view.requiredID("id")
        var participants: [String] = [], more = 0
        for (position, node) in (try view.array("accounts", expected: "an array of accounts") ?? []).enumerated() {
            guard let user = try? decoder.user(try JSONObjectView(node, path: view.path("accounts") + "[\(position)]", expected: "an account object")),
                  namespace.id(user.id) != ownUserID else { continue }
            if participants.count < Conversation.maximumParticipants { participants.append(user.handle) } else { more += 1 }
        }
        var conversation = Conversation(id: id, kind: .statuses, account: account, isUnread: try view.bool("unread") ?? false,
                                        participants: participants, moreParticipants: more)
        if let last = try view.object("last_status", expected: "a status object or null") {
            let statusID = try decoder.status(last, into: &timeline)
            conversation.lastMessageID = namespace.id(statusID)
            if let message = timeline.messages.first(where: { $0.id == statusID }) {
                conversation.lastText = Conversation.bounded(message.text)
                conversation.lastAt = message.createdAt
                conversation.lastSender = timeline.users.first(where: { $0.id == message.authorID })?.handle
            }
        }
        return conversation
    }
}
