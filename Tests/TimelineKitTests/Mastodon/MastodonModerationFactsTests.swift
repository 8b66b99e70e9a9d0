#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TimelineKit

/// What a Mastodon status says that the person's rules read (issue 34): its `filtered` results,
/// in the shape of Mastodon's API documentation (`FilterResult`, `Filter`), and its visibility.
@Suite struct MastodonModerationFactsTests {
    private func status(visibility: String = "public", filtered: String = "[]") -> [UInt8] {
        Array("""
            [{"id":"1","created_at":"2026-11-20T10:00:00.000Z","visibility":"\(visibility)","spoiler_text":"","content":"<p>The finale!</p>",
              "account":{"id":"9","username":"a","acct":"a","display_name":"A"},"media_attachments":[],
              "filtered":\(filtered)}]
            """.utf8)
    }

    private func filterResult(id: String, title: String, context: [String], action: String?) -> String {
        let contexts = context.map { "\"\($0)\"" }.joined(separator: ",")
        let actionField = action.map { #","filter_action":"\#($0)""# } ?? ""
        return """
            {"filter":{"id":"\(id)","title":"\(title)","context":[\(contexts)],"expires_at":null\(actionField),"keywords":[],"statuses":[]},
             "keyword_matches":["finale"],"status_matches":null}
            """
    }

    @Test func filterResultsOfTheTimelinesContextBecomeFacts() throws {
        let filtered = "[" + [
            filterResult(id: "10", title: "Spoilers", context: ["home", "public"], action: "warn"),
            filterResult(id: "11", title: "Elsewhere", context: ["notifications"], action: "hide"),
            filterResult(id: "12", title: "Old server", context: ["home"], action: nil),
            filterResult(id: "13", title: "Future", context: ["home", "thread"], action: "redact"),
            filterResult(id: "14", title: "Blurred", context: ["home"], action: "blur"),
        ].joined(separator: ",") + "]"
        let home = try #require(try MastodonDecoder().decode(status(filtered: filtered)).messages.first)
        #expect(home.moderation.filterMatches == [
            FilterMatch(title: "Spoilers", action: .warn, filterID: "10"),
            FilterMatch(title: "Old server", action: .warn, filterID: "12"),
            FilterMatch(title: "Future", action: .warn, filterID: "13"),
            FilterMatch(title: "Blurred", action: .blur, filterID: "14"),
        ])
        let notifications = try #require(try MastodonDecoder(overlongText: .cut, filterContext: "notifications")
            .decode(status(filtered: filtered)).messages.first)
        #expect(notifications.moderation.filterMatches.map(\.title) == ["Spoilers", "Elsewhere", "Old server", "Future", "Blurred"])
    }

    @Test func aNamespacedStatusNamespacesItsFilters() throws {
        let filtered = "[" + filterResult(id: "10", title: "Spoilers", context: ["home"], action: "hide") + "]"
        let message = try #require(try MastodonDecoder().decode(status(filtered: filtered)).messages.first)
        let namespace = MastodonNamespace(server: try ServerAddress("https://social.example"))
        #expect(namespace.apply(to: message).moderation.filterMatches.first?.filterID == "social.example/10")
    }

    @Test func aFilterSinceDeletedOrExpiredNoLongerCountsOnceTheServersFiltersAreRead() {
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let message = Message(id: "social.example/1", authorID: "social.example/9", text: "x", createdAt: now)
        let facts = ModerationFacts(filterMatches: [FilterMatch(title: "Spoilers", action: .hide, filterID: "social.example/10")])
        #expect(ModerationRules().verdict(for: message, facts: facts, now: now) == .hidden(reason: "Filtered: Spoilers"))
        let deleted = ModerationRules(serverFiltersRead: ["social.example"])
        #expect(deleted.verdict(for: message, facts: facts, now: now) == .shown)
        let expired = ModerationRules(serverFilters: ["social.example/10": now], serverFiltersRead: ["social.example"])
        #expect(expired.verdict(for: message, facts: facts, now: now) == .shown)
        let live = ModerationRules(serverFilters: ["social.example/10": nil], serverFiltersRead: ["social.example"])
        #expect(live.verdict(for: message, facts: facts, now: now) == .hidden(reason: "Filtered: Spoilers"))
    }

    @Test(arguments: [("public", PostVisibility.public), ("unlisted", .unlisted), ("private", .private), ("direct", .direct)])
    func theVisibilityIsKept(value: String, visibility: PostVisibility) throws {
        #expect(try MastodonDecoder().decode(status(visibility: value)).messages.first?.visibility == visibility)
    }

    @Test func anUnknownVisibilityIsLeftOut() throws {
        #expect(try MastodonDecoder().decode(status(visibility: "local")).messages.first?.visibility == nil)
    }

    @Test func aHostileListOfResultsIsBounded() throws {
        let many = "[" + (0..<5_000).map { filterResult(id: "\($0)", title: String(repeating: "t", count: 1_000), context: ["home"], action: "warn") }
            .joined(separator: ",") + "]"
        let message = try #require(try MastodonDecoder().decode(status(filtered: many)).messages.first)
        #expect(message.moderation.filterMatches.count == MastodonDecoder.maximumFilterResults)
        #expect(message.moderation.filterMatches.allSatisfy { $0.title.count == MutedWord.maximumTitleLength })
    }
}
