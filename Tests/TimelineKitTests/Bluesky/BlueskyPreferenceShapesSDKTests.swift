import Foundation
import Testing
@testable import TimelineKit

/// The preference and label shapes timeline's tests use, held to the official atproto SDK's
/// models (`tools/atproto-sdk`, `models`): what the reader is tested with is what Bluesky sends.
@Suite struct BlueskyPreferenceShapesSDKTests {
    @Test func thePreferencesTheReaderIsTestedWithAreTheSDKs() throws {
        let answer = try JSONSerialization.jsonObject(with: Data(BlueskyPreferencesTests.answer.utf8))
        var preferences = try #require((answer as? [String: Any])?["preferences"] as? [[String: Any]])
        // The reader's own test holds entries Bluesky refuses on purpose (a labeler that is not a
        // DID, a muted word without targets, a hidden post that is no AT URI): the rest must be the SDK's.
        preferences = preferences.map { preference in
            var preference = preference
            if var labelers = preference["labelers"] as? [[String: Any]] {
                labelers.removeAll { ($0["did"] as? String) == "not a did" }
                preference["labelers"] = labelers
            }
            if var items = preference["items"] as? [Any] {
                items.removeAll { ($0 as? [String: Any]).map { $0["targets"] == nil } ?? (($0 as? String)?.hasPrefix("at://") == false) }
                preference["items"] = items
            }
            return preference
        }
        let label: [String: Any] = ["src": LabelPreferences.blueskyModeration, "uri": "at://did:plc:alice/app.bsky.feed.post/3kabc",
                                    "cid": "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm", "val": "porn",
                                    "cts": "2026-11-20T10:00:00.000Z", "neg": true]
        let verdicts = try #require(try AtprotoSDK.json("models", input: [
            ["model": "AppBskyActorGetPreferences.Response", "value": ["preferences": preferences]],
            ["model": "ComAtprotoLabelDefs.Label", "value": label],
            ["model": "ComAtprotoLabelDefs.SelfLabels", "value": ["$type": "com.atproto.label.defs#selfLabels", "values": [["val": "graphic-media"]]]],
            // And the SDK refuses what the reader leaves out: a muted word without targets.
            ["model": "AppBskyActorDefs.MutedWord", "value": ["value": "no targets"]],
        ]) as? [Any])
        #expect(verdicts.count == 4)
        #expect(verdicts.prefix(3).allSatisfy { $0 is NSNull }, "\(verdicts)")
        #expect(!(verdicts[3] is NSNull))
    }
}
