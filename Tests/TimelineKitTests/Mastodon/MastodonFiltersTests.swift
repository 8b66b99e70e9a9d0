#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TimelineKit

/// `GET /api/v2/filters` answers in the shape of Mastodon's API documentation (`Filter`,
/// `FilterKeyword`, `FilterStatus`), read into the account's rules (issue 34).
@Suite struct MastodonFiltersTests {
    static let answer = """
        [{"id":"19972","title":"Test filter","context":["home"],"expires_at":"2026-12-01T00:00:00.000Z","filter_action":"warn",
          "keywords":[{"id":"1197","keyword":"bad word","whole_word":false},{"id":"1198","keyword":"(a+)+$","whole_word":true}],
          "statuses":[{"id":"1","status_id":"109031743575371913"}]},
         {"id":"19973","title":"Notifications only","context":["notifications"],"expires_at":null,"filter_action":"hide",
          "keywords":[{"id":"1199","keyword":"quiet","whole_word":true}],"statuses":[]},
         {"id":"19974","title":"Spoilers","context":["home","public","thread"],"expires_at":null,"filter_action":"hide",
          "keywords":[{"id":"1200","keyword":"finale","whole_word":true}],"statuses":[]},
         {"id":"19975","title":"Newer","context":["home"],"expires_at":null,"filter_action":"redact",
          "keywords":[{"id":"1201","keyword":"later"}],"statuses":[]}]
        """

    private let namespace = MastodonNamespace(server: try! ServerAddress("https://social.example"))

    private func read(_ text: String) throws -> MastodonFilters {
        try MastodonFilters(JSONFields.document(Array(text.utf8)), namespace: namespace)
    }

    @Test func theKeywordsOfHomeFiltersBecomeMutedWords() throws {
        let filters = try read(Self.answer)
        let expiry = MillisecondTime.date(fromMilliseconds: try RFC3339Time.parse("2026-12-01T00:00:00.000Z").get())
        #expect(filters.words == [
            MutedWord(value: "bad word", targetsTags: false, wholeWord: false, expiresAt: expiry, action: .warn, title: "Test filter",
                      filterID: "social.example/19972"),
            MutedWord(value: "(a+)+$", targetsTags: false, expiresAt: expiry, action: .warn, title: "Test filter", filterID: "social.example/19972"),
            MutedWord(value: "finale", targetsTags: false, action: .hide, title: "Spoilers", filterID: "social.example/19974"),
            MutedWord(value: "later", targetsTags: false, action: .warn, title: "Newer", filterID: "social.example/19975"),
        ])
        #expect(filters.filters == ["social.example/19972": expiry, "social.example/19973": nil,
                                    "social.example/19974": nil, "social.example/19975": nil])
    }

    @Test func aSyncReplacesOnlyTheFiltersOfItsServer() throws {
        var rules = ModerationRules(mutedAccounts: ["social.example/5": nil], mutedWords: [
            MutedWord(value: "gone", title: "Deleted", filterID: "social.example/1"),
            MutedWord(value: "elsewhere", title: "Other", filterID: "other.example/1"),
            MutedWord(value: "mine"),
        ], serverFilters: ["social.example/1": nil])
        try read(Self.answer).apply(to: &rules, authority: "social.example")
        #expect(rules.mutedWords.map(\.value) == ["elsewhere", "mine", "bad word", "(a+)+$", "finale", "later"])
        #expect(rules.serverFilters["social.example/1"] == nil && rules.serverFilters.count == 4)
        #expect(rules.serverFiltersRead == ["social.example"])
        #expect(rules.mutedAccounts.count == 1)
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        func verdict(_ text: String) -> ModerationVerdict {
            rules.verdict(for: Message(id: "social.example/9", authorID: "social.example/3", text: text, createdAt: now), facts: .none, now: now)
        }
        #expect(verdict("the Finale aired") == .hidden(reason: "Filtered: Spoilers"))
        #expect(verdict("a badwordy text with bad words") == .collapsed(reason: "Filtered: Test filter"))
        #expect(verdict("be quiet") == .shown)
        #expect(verdict("gone") == .shown)
    }

    @Test func aHostileListIsBounded() throws {
        let keywords = (0..<30_000).map { #"{"id":"\#($0)","keyword":"k\#($0)","whole_word":true}"# }.joined(separator: ",")
        let filters = (0..<1_500).map { #"{"id":"\#($0)","title":"t","context":["notifications"],"keywords":[]}"# }.joined(separator: ",")
        let read = try read(#"[{"id":"big","title":"Big","context":["home"],"filter_action":"hide","keywords":[\#(keywords)]},\#(filters)]"#)
        #expect(read.words.count == MutedWord.maximumCount)
        #expect(read.filters.count == MastodonFilters.maximumFilters)
        #expect(read.leftOut == 501 + 10_000)
    }

    @Test func anAnswerThatIsNotAListIsRefused() {
        #expect(throws: JSONLineFailure.self) { try read(#"{"error":"nope"}"#) }
    }
}
