import Foundation
import Testing
@testable import TimelineKit

/// The input `timeline chat ID TEXT` sends (`chat.bsky.convo.sendMessage`, issue 37) against the
/// official Python AT Protocol SDK's model of it (`models.ChatBskyConvoSendMessage.Data`, whose
/// `message` is a `ChatBskyConvoDefs.MessageInput`), strict and with string formats checked.
@Suite struct BlueskyChatSDKTests {
    @Test func everySendMessageInputIsOneTheSDKAccepts() throws {
        let texts = Array(RichTextCorpus.written.prefix(300)) + [
            "see you at https://example.org/a?b=c #soon", "plain", "日本語のメッセージ #タグ", String(repeating: "é", count: 1_000),
        ]
        let sendable = texts.filter { ChatTextError.problem($0) == nil }
        #expect(sendable.count > 200)
        let questions: [[String: Any]] = try sendable.map { text in
            let body = BlueskyClient.sendMessageBody(text, to: "3kabc2def")
            return ["model": "ChatBskyConvoSendMessage.Data", "value": try JSONSerialization.jsonObject(with: Data(body))]
        }
        let answers = try #require(try AtprotoSDK.json("models", input: questions) as? [Any])
        let refused = zip(sendable, answers).compactMap { text, answer in (answer as? String).map { "\(text.debugDescription): \($0)" } }
        #expect(refused.isEmpty, "\(refused.count) refused:\n\(refused.prefix(10).joined(separator: "\n"))")
        // Facets were written for some: the corpus's links and tags.
        #expect(sendable.contains { BlueskyClient.sendMessageBody($0, to: "c").count > 40 + $0.utf8.count * 2 })
    }

    @Test func aTextTheLexiconRefusesIsRefusedBeforeSending() throws {
        let long = String(repeating: "a", count: 10_001)
        #expect(ChatTextError.problem(long) != nil)
        #expect(ChatTextError.problem(String(repeating: "a", count: 1_001)) != nil)
        #expect(ChatTextError.problem("   \n") != nil)
        #expect(ChatTextError.problem(String(repeating: "a", count: 1_000)) == nil)
        // The SDK refuses the same text: the bound is the lexicon's, not one made up here.
        let body = try JSONSerialization.jsonObject(with: Data(BlueskyClient.sendMessageBody(long, to: "c")))
        let answers = try #require(try AtprotoSDK.json("models", input: [["model": "ChatBskyConvoSendMessage.Data", "value": body]]) as? [Any])
        #expect(answers.first is String, "\(answers)")
    }
}
