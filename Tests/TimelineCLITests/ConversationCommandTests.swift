import Foundation
import Testing

/// `conversations` (issue 37) against the loopback Mastodon server: `GET /api/v1/conversations`
/// in its real shape ({id, unread, accounts, last_status}, paged by the last status's ID in
/// `Link`), the references it paints (`dm:bkd`) taken by `thread`, `post --reply-to` and
/// `open`, unread marks, and `thread` marking the conversation read at the server.
@Suite(.serialized) struct ConversationCommandTests {
    static func calls(_ server: MastodonTestServer, path: String) throws -> [[String: Any]] {
        try server.requests().filter { ($0["path"] as? String) == path }
    }

    @Test func mastodonConversationsAreListedNewestFirstInPagesWithUnreadMarksAndReferences() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        _ = try server.control("conversations", ["count": 45])
        let listed = try await scenario.timeline.runOffThePool(["conversations", "-n", "45"])
        #expect(listed.status == 0, "\(listed.errors)")
        let heads = listed.output.split(separator: "\n").filter { $0.hasPrefix("dm:") }
        #expect(heads.count == 45, "\(listed.output)")
        // Every other one unread, the newest first (conversation 0 is the newest and unread).
        #expect(heads.first?.contains("unread") == true && heads.first?.contains("with user0@example.test") == true, "\(heads.first ?? "")")
        #expect(heads.filter { $0.contains("unread") }.count == 23)
        // The escape sequence in a sender's text reaches the terminal inert.
        #expect(!listed.output.contains("\u{1B}"), "\(listed.output)")
        #expect(listed.output.contains("user0@example.test: direct 0"), "\(listed.output)")
        // Two pages: 40, then 5 below the Link header's max_id (the last status's ID).
        let pages = try Self.calls(server, path: "/api/v1/conversations")
        #expect(pages.count == 2, "\(pages)")
        #expect((pages.last?["query"] as? String)?.contains("max_id=") == true)
        // Kept apart from home: `show` does not paint them.
        #expect(FileManager.default.fileExists(atPath: scenario.directory + "/timeline.dm.sqlite"))
        let home = try scenario.timeline.run(["show", "-n", "500", "--format", "{text}"])
        #expect(!home.output.contains("direct message"), "\(home.output)")

        // -n bounds what is asked for and listed.
        let few = try await scenario.timeline.runOffThePool(["conversations", "-n", "3", "--json"])
        #expect(few.status == 0 && few.output.split(separator: "\n").count == 3, "\(few.output) \(few.errors)")
        let first = try JSONSerialization.jsonObject(with: Data(few.output.split(separator: "\n")[0].utf8)) as? [String: Any]
        #expect(first?["unread"] as? Bool == true && (first?["reference"] as? String)?.hasPrefix("dm:") == true, "\(few.output)")
        #expect((first?["participants"] as? [String]) == ["user0@example.test"], "\(few.output)")
    }

    @Test func threadOfAConversationShowsItMarksItReadAndAReplyStaysDirect() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        _ = try server.control("conversations", ["count": 2])
        let listed = try await scenario.timeline.runOffThePool(["conversations"])
        let reference = try #require(listed.output.split(separator: "\n").first?.split(separator: " ").first.map(String.init))
        #expect(reference.hasPrefix("dm:"), "\(listed.output)")

        let thread = try await scenario.timeline.runOffThePool(["thread", reference, "--color", "never"])
        #expect(thread.status == 0, "\(thread.errors)")
        #expect(thread.output.contains("direct 0"), "\(thread.output)")
        let read = try Self.calls(server, path: "/api/v1/conversations/5000/read")
        #expect(read.count == 1 && read.first?["method"] as? String == "POST", "\(read)")
        let state = try server.control("conversations", ["count": 0]) as? [String: Any]
        let conversations = state?["conversations"] as? [[String: Any]] ?? []
        #expect(conversations.first { $0["id"] as? String == "5000" }?["unread"] as? Bool == false)
        // Read now: a second `thread` sends nothing more.
        _ = try await scenario.timeline.runOffThePool(["thread", reference])
        #expect(try Self.calls(server, path: "/api/v1/conversations/5000/read").count == 1)

        // A reply from the conversations view is direct, as the status it answers.
        let reply = try await scenario.timeline.runOffThePool(["post", "--reply-to", reference, "see you there"])
        #expect(reply.status == 0, "\(reply.errors)")
        let posted = try #require(try Self.calls(server, path: "/api/v1/statuses").last?["json"] as? [String: Any])
        #expect(posted["visibility"] as? String == "direct", "\(posted)")
        #expect(posted["in_reply_to_id"] != nil, "\(posted)")

        let opened = try await scenario.timeline.runOffThePool(["open", reference, "--print"])
        #expect(opened.status == 0 && opened.output.hasPrefix("https://loopback.test/@user0/"), "\(opened.output) \(opened.errors)")

        // Nothing listed yet in another directory: the reference is refused, nothing sent.
        let other = try await scenario.timeline.runOffThePool(["--db", scenario.directory + "/other.sqlite", "thread", reference])
        #expect(other.status == 66 && other.errors.contains("`timeline conversations` fetches them"), "\(other.errors)")
    }

    @Test func aConversationWhoseLastStatusTheRulesHideDoesNotPrintIt() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        _ = try server.control("conversations", ["count": 2])
        let before = try await scenario.timeline.runOffThePool(["conversations"])
        #expect(before.output.contains("user0@example.test: direct 0"), "\(before.output)")
        // Muted at the server, then read back by a sync into the main timeline's rules.
        let muted = try await scenario.timeline.runOffThePool(["mute", "user0@example.test"])
        #expect(muted.status == 0, "\(muted.output)\(muted.errors)")
        #expect(try await scenario.timeline.runOffThePool(["sync"]).status == 0)
        let after = try await scenario.timeline.runOffThePool(["conversations"])
        #expect(after.status == 0, "\(after.errors)")
        #expect(!after.output.contains("direct 0"), "\(after.output)")
        #expect(after.output.contains("(hidden by your rules"), "\(after.output)")
        #expect(after.output.contains("direct message 1"), "\(after.output)")
    }

    @Test func aServerWithoutConversationsIsSaidInOneLine() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        _ = try server.control("settings", ["missing": ["/api/v1/conversations"]])
        let listed = try await scenario.timeline.runOffThePool(["conversations"])
        #expect(listed.status == 69, "\(listed.status) \(listed.errors)")
        #expect(listed.errors.split(separator: "\n").count == 1 && listed.errors.contains("conversations"), "\(listed.errors)")
    }

    @Test func anUnreachableServerIsSaidInOneLineAndAKeptReferenceStillOpensOffline() async throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        _ = try server.control("conversations", ["count": 1])
        let listed = try await scenario.timeline.runOffThePool(["conversations"])
        let reference = try #require(listed.output.split(separator: " ").first.map(String.init))
        server.stop()
        let offline = try await scenario.timeline.runOffThePool(["conversations"])
        #expect(offline.status == 75, "\(offline.status) \(offline.errors)")
        #expect(offline.errors.split(separator: "\n").count == 1 && offline.errors.contains("its conversations could not be read"), "\(offline.errors)")
        // What was kept reads without the network.
        let thread = try await scenario.timeline.runOffThePool(["thread", reference, "--offline"])
        #expect(thread.status == 0 && thread.output.contains("direct 0"), "\(thread.output) \(thread.errors)")
    }

    static func chatCalls(_ server: MastodonTestServer, _ nsid: String) throws -> [[String: Any]] {
        try server.requests().filter { ($0["nsid"] as? String) == nsid }
    }

    @Test func blueskyChatsAreListedReadAndAnsweredThroughTheChatProxyNeverAsAPost() async throws {
        let server = try BlueskyTestServer.start()
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        _ = try server.control("chats", ["count": 120, "messages": 3])
        let listed = try await scenario.timeline.runOffThePool(["conversations", "-n", "120"])
        #expect(listed.status == 0, "\(listed.errors)")
        let heads = listed.output.split(separator: "\n").filter { $0.hasPrefix("chat:") }
        #expect(heads.count == 120, "\(listed.output)")
        #expect(heads.first?.hasPrefix("chat:convo1  unread (2)  with user0.loopback.test") == true, "\(heads.first ?? "")")
        #expect(heads.filter { $0.contains("unread") }.count == 60)
        #expect(!listed.output.contains("\u{1B}"), "\(listed.output)")
        // Two pages (100, then 20 after the cursor), each through the chat proxy.
        let pages = try Self.chatCalls(server, "chat.bsky.convo.listConvos")
        #expect(pages.count == 2, "\(pages)")
        #expect(pages.allSatisfy { $0["proxy"] as? String == "did:web:api.bsky.chat#bsky_chat" && $0["server"] as? String == "pds" }, "\(pages)")
        #expect((pages.last?["query"] as? String)?.contains("cursor=100") == true, "\(pages)")
        // Not stored: the conversations' database holds no chat.
        let kept = try scenario.timeline.run(["--db", scenario.directory + "/timeline.dm.sqlite", "show", "-n", "10", "--format", "{text}"])
        #expect(!kept.output.contains("convo"), "\(kept.output)")

        let read = try await scenario.timeline.runOffThePool(["chat", "chat:convo1"])
        #expect(read.status == 0, "\(read.errors)")
        #expect(read.output.contains("(deleted)") && read.output.contains("message 1 of convo1") && read.output.contains("user0.loopback.test"), "\(read.output)")
        #expect(!read.output.contains("\u{1B}"), "\(read.output)")
        // Oldest first: the newest message is last.
        #expect(read.output.range(of: "message 1 of convo1")!.lowerBound < read.output.range(of: "newest")!.lowerBound)
        let marked = try Self.chatCalls(server, "chat.bsky.convo.updateRead")
        #expect(marked.count == 1 && (marked.first?["body"] as? [String: Any])?["convoId"] as? String == "convo1", "\(marked)")

        let sent = try await scenario.timeline.runOffThePool(["chat", "convo1", "see you at https://example.org #soon"])
        #expect(sent.status == 0, "\(sent.errors)")
        #expect(sent.output.contains("see you at https://example.org #soon"), "\(sent.output)")
        let bodies = try Self.chatCalls(server, "chat.bsky.convo.sendMessage")
        #expect(bodies.count == 1 && bodies.first?["proxy"] as? String == "did:web:api.bsky.chat#bsky_chat", "\(bodies)")
        let message = (bodies.first?["body"] as? [String: Any])?["message"] as? [String: Any]
        #expect(message?["text"] as? String == "see you at https://example.org #soon", "\(bodies)")
        #expect((message?["facets"] as? [Any])?.count == 2, "\(bodies)")
        // A chat message never becomes a post: no record was written.
        #expect(try Self.chatCalls(server, "com.atproto.repo.createRecord").isEmpty)
        let asReply = try await scenario.timeline.runOffThePool(["post", "--reply-to", "chat:convo1", "not a post"])
        #expect(asReply.status != 0, "\(asReply.output)")
        #expect(try Self.chatCalls(server, "com.atproto.repo.createRecord").isEmpty)

        let tooLong = try await scenario.timeline.runOffThePool(["chat", "convo1", String(repeating: "a", count: 1_001)])
        #expect(tooLong.status == 65 && tooLong.errors.contains("at most 1000 characters"), "\(tooLong.errors)")
        #expect(try Self.chatCalls(server, "chat.bsky.convo.sendMessage").count == 1)
    }

    @Test func anAppPasswordWithoutDirectMessagesIsSaidInOneLine() async throws {
        let server = try BlueskyTestServer.start()
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        _ = try server.control("chats", ["count": 2, "privileged": false])
        let listed = try await scenario.timeline.runOffThePool(["conversations"])
        #expect(listed.status == 77, "\(listed.status)")
        #expect(listed.errors == "timeline: me.loopback.test: this app password cannot read chats: make one with 'Allow access to your direct messages' at bsky.app/settings/app-passwords\n", "\(listed.errors)")
        // Not taken for an expired token: no refresh was tried.
        #expect(try Self.chatCalls(server, "com.atproto.server.refreshSession").isEmpty)
        let sent = try await scenario.timeline.runOffThePool(["chat", "convo1", "hello"])
        #expect(sent.errors.contains("this app password cannot read chats") && sent.errors.split(separator: "\n").count == 1, "\(sent.errors)")
    }

    @Test func aChatMessageToAnUnreachableServerIsRefusedInOneLineAndNotKept() async throws {
        let server = try BlueskyTestServer.start()
        let scenario = try BlueskyCommandTests.loggedIn(to: server)
        _ = try server.control("chats", ["count": 1])
        server.stop()
        let sent = try await scenario.timeline.runOffThePool(["chat", "chat:convo1", "hello"])
        #expect(sent.status == 75, "\(sent.status) \(sent.errors)")
        #expect(sent.errors.split(separator: "\n").count == 1
                && sent.errors.hasPrefix("timeline: me.loopback.test: the message was not sent, and nothing is kept to send later (send it again): "), "\(sent.errors)")
        let read = try await scenario.timeline.runOffThePool(["chat", "chat:convo1"])
        #expect(read.status == 75 && read.errors.contains("the chat could not be read: "), "\(read.errors)")
        // Nothing was queued: no outbox holds it.
        let accounts = try await scenario.timeline.runOffThePool(["accounts"])
        #expect(!accounts.output.contains("waiting"), "\(accounts.output)")
    }
}
