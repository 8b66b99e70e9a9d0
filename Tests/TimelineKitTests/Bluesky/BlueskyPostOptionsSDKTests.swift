import Foundation
import Testing
@testable import TimelineKit

/// Issue 36's options in Bluesky post records, judged by the official atproto SDK's lexicon
/// models (as `BlueskyRichTextSDKTests` judges facets): the self-labels `--sensitive` and
/// `--label` write, with the language `--language` gives.
@Suite struct BlueskyPostOptionsSDKTests {
    @Test func sensitiveAndEachLabelWriteSelfLabelsTheSDKAccepts() async throws {
        let pds = FakePDS()
        pds.answer("com.atproto.repo.createRecord", FakePDS.json(200, #"{"uri":"at://did:plc:x/app.bsky.feed.post/3l3qo2vuowo2b","cid":"bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"}"#))
        let fixture = try SyncFixture()
        fixture.account = "alice.test"
        let client = BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: nil, transport: pds,
                                   policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        let sync = BlueskySync(store: fixture.store, account: fixture.account, client: client)

        var drafts: [PostDraft] = []
        var sensitive = PostDraft(text: "At the match", languages: ["pt-BR"])
        sensitive.sensitive = true
        drafts.append(sensitive)
        for label in SelfLabel.allCases {
            var draft = PostDraft(text: "labelled \(label.rawValue)")
            draft.contentLabel = label
            drafts.append(draft)
        }
        drafts.append(PostDraft(text: "no label"))
        for draft in drafts { try await sync.post(BlueskyPost(draft)) }

        let records = try pds.requests.filter { $0.url.hasSuffix("/com.atproto.repo.createRecord") }.map { request -> [String: Any] in
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: Any])
            return try #require(body["record"] as? [String: Any])
        }
        #expect(records.count == drafts.count)
        let verdicts = try #require(try AtprotoSDK.json("records", input: records) as? [Any])
        #expect(verdicts.count == records.count && verdicts.allSatisfy { $0 is NSNull }, "\(verdicts)")
        func values(_ record: [String: Any]) -> [String] {
            guard let labels = record["labels"] as? [String: Any] else { return [] }
            #expect(labels["$type"] as? String == "com.atproto.label.defs#selfLabels")
            return (labels["values"] as? [[String: Any]] ?? []).compactMap { $0["val"] as? String }
        }
        #expect(records.map(values) == [["graphic-media"], ["sexual"], ["nudity"], ["porn"], ["graphic-media"], []])
        #expect(records[0]["langs"] as? [String] == ["pt-BR"])
    }
}
