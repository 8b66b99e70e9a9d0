#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Bluesky's chats (issue 37): `chat.bsky.convo.*`, sent to the account's PDS with
// `atproto-proxy: did:web:api.bsky.chat#bsky_chat`, which forwards them to the chat service as
// the official app does. Read live, never stored: a chat's messages are not posts, and keeping
// them would put private messages in a timeline database made for public ones.
//
// An app password made without "Allow access to your direct messages" is refused by the PDS
// before anything is forwarded: 400 `{"error":"InvalidToken","message":"Bad token method"}`
// (atproto's pipethrough; "Bad token scope" from its auth verifier). Not an expired token: no
// refresh is tried, and the person is told how to make one that may.

extension BlueskyClient {
    /// The header that sends a call to Bluesky's chat service through the PDS.
    public static let chatProxy = HTTPHeader(name: "atproto-proxy", value: "did:web:api.bsky.chat#bsky_chat")

    /// The sentence said when the app password may not use chats.
    public static let chatRefusal = "this app password cannot read chats: make one with 'Allow access to your direct messages' at bsky.app/settings/app-passwords"

    /// Whether an answer is the PDS refusing an app password without direct messages.
    static func isChatRefusal(_ response: HTTPResponse) -> Bool {
        guard response.status == 400 || response.status == 401 || response.status == 403,
              let document = try? JSONFields.document(response.body) else { return false }
        return isChatRefusal(message: document.text("message"))
    }

    static func isChatRefusal(message: String?) -> Bool {
        guard let message else { return false }
        return message.contains("Bad token method") || message.contains("Bad token scope")
    }

    /// A chat call; the refusal of an app password without chats is ``ChatAccessError``.
    func chatCall(_ method: HTTPRequest.Method, _ nsid: String, parameters: [(name: String, value: String)] = [],
                  json: [UInt8]? = nil) async throws -> HTTPResponse {
        do {
            return try await call(method, nsid, parameters: parameters, body: json.map { ($0, Self.jsonContent.value) }, extra: [Self.chatProxy]) { response in
                Self.isRefusedToken(response) && !Self.isChatRefusal(response)
            }
        } catch {
            if case let .rejected(_, status, reason) = error, [400, 401, 403].contains(status), Self.isChatRefusal(message: reason) {
                throw ChatAccessError(Self.chatRefusal)
            }
            throw error
        }
    }

    /// `chat.bsky.convo.listConvos`: the account's chats, newest first, pages of at most 100,
    /// at most `limit` (held to ``Conversation/maximumListed``) in at most `limit / 50 + 2`
    /// requests.
    public func conversations(limit: Int, account: String) async throws -> [Conversation] {
        let limit = max(1, min(limit, Conversation.maximumListed))
        let own = currentSession?.did
        var conversations: [Conversation] = []
        var cursor: String?
        var requests = 0
        while conversations.count < limit, requests < limit / 50 + 2 {
            requests += 1
            let wanted = min(100, limit - conversations.count)
            var parameters = [(name: "limit", value: String(wanted))]
            if let cursor { parameters.append((name: "cursor", value: cursor)) }
            let url = host.url("/xrpc/chat.bsky.convo.listConvos", query: parameters)
            let response = try await chatCall(.get, "chat.bsky.convo.listConvos", parameters: parameters)
            let (page, next) = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                let view = try JSONObjectView(document, path: "", expected: "a list of convos")
                var page: [Conversation] = []
                for (index, node) in (try view.array("convos", expected: "an array of convos") ?? []).prefix(wanted).enumerated() {
                    if let conversation = try? Self.conversation(node, path: "convos[\(index)]", own: own, account: account) { page.append(conversation) }
                }
                return (page, try view.string("cursor"))
            }
            conversations += page
            guard let next, !next.isEmpty, next != cursor, !page.isEmpty else { break }
            cursor = next
        }
        return Array(conversations.prefix(limit))
    }

    /// `chat.bsky.convo.getMessages`: the chat's newest messages, newest first, pages of at most
    /// 100, at most `limit` (held to ``ChatMessage/maximumRead``).
    public func chatMessages(in conversationID: String, limit: Int) async throws -> [ChatMessage] {
        let limit = max(1, min(limit, ChatMessage.maximumRead))
        let handles = try await memberHandles(of: conversationID)
        var messages: [ChatMessage] = []
        var cursor: String?
        var requests = 0
        while messages.count < limit, requests < limit / 50 + 2 {
            requests += 1
            let wanted = min(100, limit - messages.count)
            var parameters = [(name: "convoId", value: conversationID), (name: "limit", value: String(wanted))]
            if let cursor { parameters.append((name: "cursor", value: cursor)) }
            let url = host.url("/xrpc/chat.bsky.convo.getMessages", query: parameters)
            let response = try await chatCall(.get, "chat.bsky.convo.getMessages", parameters: parameters)
            let (page, next) = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                let view = try JSONObjectView(document, path: "", expected: "a list of messages")
                var page: [ChatMessage] = []
                for (index, node) in (try view.array("messages", expected: "an array of messages") ?? []).prefix(wanted).enumerated() {
                    if let message = try? Self.message(node, path: "messages[\(index)]") { page.append(message) }
                }
                return (page, try view.string("cursor"))
            }
            messages += page.map { message in
                var message = message
                message.senderHandle = handles[message.senderDID]
                return message
            }
            guard let next, !next.isEmpty, next != cursor, !page.isEmpty else { break }
            cursor = next
        }
        return Array(messages.prefix(limit))
    }

    /// The handles of the chat's members by DID (`chat.bsky.convo.getConvo`), at most
    /// ``Conversation/maximumParticipants`` + 1: who wrote each message.
    func memberHandles(of conversationID: String) async throws -> [String: String] {
        let parameters = [(name: "convoId", value: conversationID)]
        let url = host.url("/xrpc/chat.bsky.convo.getConvo", query: parameters)
        let response = try await chatCall(.get, "chat.bsky.convo.getConvo", parameters: parameters)
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> [String: String] in
            guard let convo = try JSONObjectView(document, path: "", expected: "a convo").object("convo", expected: "a convo") else { return [:] }
            var handles: [String: String] = [:]
            for (index, member) in (try convo.array("members", expected: "an array of members") ?? []).prefix(Conversation.maximumParticipants + 1).enumerated() {
                guard let member = try? JSONObjectView(member, path: "convo.members[\(index)]", expected: "a member"),
                      let did = try? member.requiredString("did"), let handle = (try? member.string("handle")).flatMap({ $0 }) else { continue }
                handles[did] = handle
            }
            return handles
        }
    }

    /// `chat.bsky.convo.sendMessage` with `{convoId, message: {text, facets?}}` (its links and
    /// hashtags as facets, as a post's are). A text the lexicon refuses is ``ChatTextError``,
    /// before anything is sent.
    public func sendChatMessage(_ text: String, to conversationID: String) async throws -> ChatMessage {
        if let problem = ChatTextError.problem(text) { throw problem }
        let body = Self.sendMessageBody(text, to: conversationID)
        let url = host.url("/xrpc/chat.bsky.convo.sendMessage")
        let response = try await chatCall(.post, "chat.bsky.convo.sendMessage", json: body)
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in try Self.message(document, path: "") }
    }

    /// `chat.bsky.convo.updateRead` of the chat: all of it read.
    public func markChatRead(_ conversationID: String) async throws {
        var body: [UInt8] = Array(#"{"convoId":"#.utf8)
        JSONLineEncoder.appendString(conversationID, to: &body)
        body.append(UInt8(ascii: "}"))
        _ = try await chatCall(.post, "chat.bsky.convo.updateRead", json: body)
    }

    /// The JSON input of `sendMessage`: `convoId` and a `messageInput` (text, and facets for
    /// its links and hashtags; mentions are left as text, which a chat shows the same).
    public static func sendMessageBody(_ text: String, to conversationID: String) -> [UInt8] {
        var body: [UInt8] = Array(#"{"convoId":"#.utf8)
        JSONLineEncoder.appendString(conversationID, to: &body)
        body += Array(#","message":{"text":"#.utf8)
        JSONLineEncoder.appendString(text, to: &body)
        var written: [String] = []
        for facet in BlueskyRichText.detectFacets(in: text) {
            var feature: [UInt8]
            switch facet.feature {
            case let .link(uri):
                feature = Array(#"{"$type":"app.bsky.richtext.facet#link","uri":"#.utf8)
                JSONLineEncoder.appendString(uri, to: &feature)
            case let .tag(tag):
                feature = Array(#"{"$type":"app.bsky.richtext.facet#tag","tag":"#.utf8)
                JSONLineEncoder.appendString(tag, to: &feature)
            case .mention:
                continue
            }
            feature.append(UInt8(ascii: "}"))
            written.append(#"{"index":{"byteStart":\#(facet.start),"byteEnd":\#(facet.end)},"features":["# + String(decoding: feature, as: UTF8.self) + "]}")
        }
        if !written.isEmpty { body += Array((#","facets":["# + written.joined(separator: ",") + "]").utf8) }
        body += Array("}}".utf8)
        return body
    }

    /// A `convoView`: its members but the account, its unread count, its last message.
    static func conversation(_ node: JSONNode, path: String, own: String?, account: String) throws(JSONLineFailure) -> Conversation {
        let view = try JSONObjectView(node, path: path, expected: "a convo")
        let id = try view.requiredString("id")
        var participants: [String] = [], more = 0, handles: [String: String] = [:]
        for (index, member) in (try view.array("members", expected: "an array of members") ?? []).enumerated() {
            guard let member = try? JSONObjectView(member, path: view.path("members") + "[\(index)]", expected: "a member"),
                  let did = try? member.requiredString("did") else { continue }
            let handle = (try? member.string("handle")).flatMap { $0 } ?? did
            if handles.count < Conversation.maximumParticipants + 1 { handles[did] = handle }
            guard did != own else { continue }
            if participants.count < Conversation.maximumParticipants { participants.append(handle) } else { more += 1 }
        }
        let unread = try view.count("unreadCount")
        var conversation = Conversation(id: id, kind: .chat, account: account, isUnread: unread > 0, unreadCount: unread,
                                        participants: participants, moreParticipants: more)
        if let last = view.field("lastMessage"), let message = try? message(last, path: view.path("lastMessage")) {
            conversation.lastText = message.isDeleted ? "(deleted)" : message.text
            conversation.lastSender = handles[message.senderDID] ?? message.senderDID
            conversation.lastAt = message.sentAt
        }
        return conversation
    }

    /// A `messageView` or `deletedMessageView`.
    static func message(_ node: JSONNode, path: String) throws(JSONLineFailure) -> ChatMessage {
        let view = try JSONObjectView(node, path: path, expected: "a message")
        let id = try view.requiredString("id")
        guard let sender = try view.object("sender", expected: "a sender") else { throw view.missing("sender") }
        let did = try sender.requiredString("did")
        let sentAt = try view.rfc3339Time("sentAt").map(MillisecondTime.date(fromMilliseconds:))
        let deleted = (try? view.string("$type")).flatMap { $0 } == "chat.bsky.convo.defs#deletedMessageView"
        let text = deleted ? "" : Conversation.bounded(try view.string("text") ?? "")
        return ChatMessage(id: id, senderDID: did, text: text, sentAt: sentAt, isDeleted: deleted)
    }
}
