import Foundation
import Testing
@testable import TimelineKit

/// A sync reads the person's v2 filters into their rules (issue 34): the keywords hide what is
/// already stored at the next sync, and a server without v2 filters is said once.
@Suite struct MastodonFilterSyncTests {
    private func texts(_ store: TimelineStore) throws -> [String] {
        try store.timeline(limit: 100).messages.map(\.text)
    }

    @Test func aFilterMadeOnTheServerHidesStoredAndNewPostsAndCollapsesWarnedOnes() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(2, text: "about the finale")
        fixture.server.post(2, text: "a spoiler here")
        fixture.server.post(2, text: "weather")
        try await fixture.run()
        #expect(try texts(fixture.store).count == 6)
        fixture.server.configure { $0.filters = """
            [{"id":"7","title":"Finale","context":["home","public"],"expires_at":null,"filter_action":"hide",
              "keywords":[{"id":"70","keyword":"finale","whole_word":true}],"statuses":[]},
             {"id":"8","title":"Spoilers","context":["home"],"expires_at":null,"filter_action":"warn",
              "keywords":[{"id":"80","keyword":"spoiler","whole_word":true}],"statuses":[]},
             {"id":"9","title":"Weather","context":["notifications"],"expires_at":null,"filter_action":"hide",
              "keywords":[{"id":"90","keyword":"weather","whole_word":true}],"statuses":[]}]
            """ }
        fixture.server.post(1, text: "the finale again")
        let summary = try await fixture.run()
        #expect(summary.newStatuses == 1)
        let page = try fixture.store.timeline(limit: 100).messages
        #expect(page.map(\.text).sorted() == ["a spoiler here 2", "a spoiler here 3", "weather 4", "weather 5"])
        #expect(page.filter { $0.text.hasPrefix("a spoiler") }.allSatisfy { $0.warning == "Filtered: Spoilers" })
        #expect(page.filter { $0.text.hasPrefix("weather") }.allSatisfy { $0.warning == nil })
        let rules = try fixture.store.moderationRules(account: fixture.account)
        #expect(rules.serverFiltersRead == ["social.example"])
        #expect(rules.mutedWords.map(\.value) == ["finale", "spoiler"])

        // The filter deleted on the server: its posts come back at the next sync.
        fixture.server.configure { $0.filters = "[]" }
        try await fixture.run()
        #expect(try texts(fixture.store).count == 7)
    }

    @Test func aServerWithoutV2FiltersIsSaidOnceAndSyncsWithout() async throws {
        let fixture = try SyncFixture()
        fixture.server.post(3)
        // A server that refuses the method (405): the first request of a sync reads the filters.
        fixture.server.configure { $0.faults[0] = .status(405) }
        let first = try await fixture.run()
        #expect(first.newStatuses == 3)
        #expect(first.newlyLacking == [.filters])
        #expect(first.serverLacks.contains(.filters))
        let before = fixture.server.requestCount
        let second = try await fixture.run()
        #expect(second.newlyLacking.isEmpty)
        #expect(second.serverLacks.contains(.filters))
        #expect(!fixture.server.requests.dropFirst(before).contains { $0.url.contains("/api/v2/filters") })
    }
}
