import Foundation
import Testing
@testable import TimelineKit

/// A sync reads the account's preferences into its rules and names its labelers to the AppView
/// (issue 34).
@Suite struct BlueskyPreferencesSyncTests {
    private func sync(_ pds: FakePDS, _ fixture: SyncFixture) async throws -> BlueskySync {
        let client = BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: nil, transport: pds,
                                   policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        return BlueskySync(store: fixture.store, account: fixture.account, client: client,
                           options: BlueskySync.Options(syncsNotifications: false))
    }

    @Test func mutedWordsHideStoredAndNewPostsAndTheLabelersAreNamed() async throws {
        let pds = FakePDS()
        pds.post(5)
        let fixture = try SyncFixture()
        fixture.account = "alice.test"
        let sync = try await sync(pds, fixture)
        try await sync.run()
        #expect(Set(try fixture.store.timeline(limit: 100).messages.map(\.text)).isSuperset(of: ["post 0", "post 1", "post 4"]))
        let firstTimeline = try #require(pds.requests.first { $0.url.contains("getTimeline") })
        #expect(firstTimeline.headers.first { $0.matches("atproto-accept-labelers") }?.value == "did:plc:ar7c4by46qjdydhdevvrndac;redact")

        pds.answer("app.bsky.actor.getPreferences", FakePDS.json(200, """
            {"preferences":[
              {"$type":"app.bsky.actor.defs#mutedWordsPref","items":[
                {"value":"post 1","targets":["content","tag"],"actorTarget":"all"},
                {"value":"post 5","targets":["content","tag"],"actorTarget":"all"}]},
              {"$type":"app.bsky.actor.defs#labelersPref","labelers":[{"did":"did:plc:mylabeler"}]}]}
            """))
        pds.post(1)
        let before = pds.requests.count
        try await sync.run()
        let texts = try fixture.store.timeline(limit: 100).messages.map(\.text)
        #expect(!texts.contains("post 1") && !texts.contains("post 5"))
        #expect(texts.contains("post 2") && texts.contains("post 4"))
        let timeline = try #require(pds.requests.dropFirst(before).first { $0.url.contains("getTimeline") })
        #expect(timeline.headers.first { $0.matches("atproto-accept-labelers") }?.value
            == "did:plc:ar7c4by46qjdydhdevvrndac;redact, did:plc:mylabeler")
    }

    @Test func aWordThatExcludesFollowsReadsWhomTheAccountFollows() async throws {
        let pds = FakePDS()
        pds.post(3)
        pds.answer("app.bsky.actor.getPreferences", FakePDS.json(200, """
            {"preferences":[{"$type":"app.bsky.actor.defs#mutedWordsPref","items":[
              {"value":"post","targets":["content"],"actorTarget":"exclude-following"}]}]}
            """))
        pds.answer("app.bsky.graph.getFollows", FakePDS.json(200, """
            {"subject":{"did":"did:plc:alice","handle":"alice.test"},"follows":[{"did":"did:plc:u2","handle":"u2.test"}]}
            """))
        let fixture = try SyncFixture()
        fixture.account = "alice.test"
        try await sync(pds, fixture).run()
        // Post 1 is by u2, followed; posts 0 (the account's own, u0) and 2 (u3) are not.
        #expect(try fixture.store.timeline(limit: 100).messages.map(\.text) == ["post 1"])
        #expect(try fixture.store.moderationRules(account: "alice.test").following == ["did:plc:u2"])
    }
}
