import Foundation
@testable import TimelineKit

import Testing

/// Bluesky's chats through the PDS (issue 37), against a PDS in memory: the proxy header on every
/// chat call, bounded pages and lists whatever the server answers, a deleted message, and the
/// refusal of an app password without direct messages, which is not an expired token.
@Suite struct BlueskyChatTests {
    private func loggedIn(_ pds: FakePDS) async throws -> BlueskyClient {
        let client = BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: nil, transport: pds, clock: TestClock().clock) { _ in }
        _ = try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        return client
    }

    private func chatRequests(_ pds: FakePDS) -> [HTTPRequest] {
        pds.requests.filter { $0.url.contains("/xrpc/chat.bsky.") }
    }

    /// A convo of `members` people (the account first), its last message sent by the second.
    private func convo(_ id: String, members: Int, unread: Int) -> String {
        let people = (0 ..< members).map { #"{"did":"did:plc:u\#($0)","handle":"user\#($0).test"}"# }.joined(separator: ",")
        return #"{"id":"\#(id)","rev":"1","members":[\#(people)],"unreadCount":\#(unread),"muted":false,"lastMessage":{"$type":"chat.bsky.convo.defs#messageView","id":"m1","rev":"1","text":"hi\u001b[2J","sender":{"did":"did:plc:u1"},"sentAt":"2024-03-01T10:00:00.000Z"}}"#
    }

    @Test func aServerThatNeverStopsPagingIsReadInBoundedRequestsThroughTheChatProxy() async throws {
        let pds = FakePDS()
        let page = (0 ..< 100).map { convo("c\($0)", members: 2, unread: $0 % 2) }.joined(separator: ",")
        // Always a next cursor, a new one each time: the client stops by its own bound.
        pds.answer("chat.bsky.convo.listConvos", FakePDS.json(200, #"{"cursor":"more","convos":[\#(page)]}"#),
                   FakePDS.json(200, #"{"cursor":"more2","convos":[\#(page)]}"#), FakePDS.json(200, #"{"cursor":"more3","convos":[\#(page)]}"#))
        let client = try await loggedIn(pds)
        let listed = try await client.conversations(limit: 10_000, account: "alice")
        #expect(listed.count == Conversation.maximumListed)
        #expect(chatRequests(pds).count <= Conversation.maximumListed / 50 + 2)
        for request in chatRequests(pds) {
            #expect(request.headers.contains { $0.matches("atproto-proxy") && $0.value == "did:web:api.bsky.chat#bsky_chat" })
            #expect(request.url.hasPrefix(FakePDS.pds + "/xrpc/"))
        }
        #expect(listed[1].isUnread && listed[1].unreadCount == 1 && !listed[0].isUnread)
        #expect(listed[0].participants == ["user1.test"] && listed[0].lastSender == "user1.test")
    }

    @Test func aGroupOfHundredsIsNamedByItsFirstTwentyAndACount() async throws {
        let pds = FakePDS()
        pds.answer("chat.bsky.convo.listConvos", FakePDS.json(200, #"{"convos":[\#(convo("big", members: 301, unread: 3))]}"#))
        let client = try await loggedIn(pds)
        let listed = try await client.conversations(limit: 20, account: "alice")
        #expect(listed.count == 1)
        // The account (did:plc:u0) is left out.
        #expect(listed.first?.participants.count == Conversation.maximumParticipants)
        #expect(listed.first?.participants.first == "user1.test")
        #expect(listed.first?.moreParticipants == 280)
    }

    @Test func messagesKeepADeletedOneAndTheirSendersHandles() async throws {
        let pds = FakePDS()
        pds.answer("chat.bsky.convo.getConvo", FakePDS.json(200, #"{"convo":\#(convo("c1", members: 2, unread: 0))}"#))
        pds.answer("chat.bsky.convo.getMessages", FakePDS.json(200, """
            {"messages":[{"$type":"chat.bsky.convo.defs#messageView","id":"m2","rev":"2","text":"second","sender":{"did":"did:plc:u1"},"sentAt":"2024-03-01T10:01:00.000Z"},
            {"$type":"chat.bsky.convo.defs#deletedMessageView","id":"m1","rev":"1","sender":{"did":"did:plc:u0"},"sentAt":"2024-03-01T10:00:00.000Z"}]}
            """))
        let client = try await loggedIn(pds)
        let messages = try await client.chatMessages(in: "c1", limit: 30)
        #expect(messages.map(\.id) == ["m2", "m1"])
        #expect(messages[0].senderHandle == "user1.test" && messages[0].text == "second" && !messages[0].isDeleted)
        #expect(messages[1].isDeleted && messages[1].text.isEmpty && messages[1].senderHandle == "user0.test")
        let query = chatRequests(pds).last?.url ?? ""
        #expect(query.contains("convoId=c1") && query.contains("limit=30"), "\(query)")
    }

    @Test func anAppPasswordWithoutDirectMessagesIsRefusedWithoutARefresh() async throws {
        let pds = FakePDS()
        pds.answer("chat.bsky.convo.listConvos", FakePDS.json(400, #"{"error":"InvalidToken","message":"Bad token method"}"#))
        let client = try await loggedIn(pds)
        await #expect(throws: ChatAccessError(BlueskyClient.chatRefusal)) {
            _ = try await client.conversations(limit: 20, account: "alice")
        }
        #expect(!pds.requests.contains { $0.url.contains("refreshSession") })
        #expect(chatRequests(pds).count == 1)
    }

    @Test func aMessageIsSentAsTheLexiconsInputAndNothingElse() async throws {
        let pds = FakePDS()
        pds.answer("chat.bsky.convo.sendMessage", FakePDS.json(200, #"{"id":"m9","rev":"9","text":"see https://example.org","sender":{"did":"did:plc:u0"},"sentAt":"2024-03-01T10:02:00.000Z"}"#))
        let client = try await loggedIn(pds)
        let sent = try await client.sendChatMessage("see https://example.org", to: "c1")
        #expect(sent.id == "m9")
        let request = try #require(chatRequests(pds).last)
        #expect(request.method == .post && request.url == FakePDS.pds + "/xrpc/chat.bsky.convo.sendMessage")
        let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: Any])
        #expect(body["convoId"] as? String == "c1")
        let message = try #require(body["message"] as? [String: Any])
        #expect(message["text"] as? String == "see https://example.org")
        #expect((message["facets"] as? [Any])?.count == 1)
        // Refused before anything is sent.
        await #expect(throws: ChatTextError.self) { _ = try await client.sendChatMessage(String(repeating: "x", count: 1_001), to: "c1") }
        #expect(chatRequests(pds).count == 1)
    }
}
