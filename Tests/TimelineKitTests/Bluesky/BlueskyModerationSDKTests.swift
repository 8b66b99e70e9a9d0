import Foundation
import Testing
@testable import TimelineKit

/// The records and preference items `block` and `mute --word` write on Bluesky (issue 34), held
/// to the official atproto SDK's models (strict, string formats checked): what a PDS and every
/// other app will read.
@Suite struct BlueskyModerationSDKTests {
    static func json(_ bytes: [UInt8]) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(bytes))
    }

    @Test func theBlockRecordAndTheMutedWordAreWhatTheSDKAccepts() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let block = BlueskySync.blockRecord(subject: "did:plc:utwv4glqqnkyz7dppayoiasi", createdAt: now)
        let word = BlueskySync.mutedWordItem("spoilers", id: PendingAction.newKey(at: now), until: now.addingTimeInterval(86_400))
        let endless = BlueskySync.mutedWordItem("a \"quoted\" phrase", id: "3kx", until: nil)
        let questions: [[String: Any]] = [
            ["model": "AppBskyGraphBlock.Record", "value": try Self.json(block)],
            ["model": "AppBskyActorDefs.MutedWord", "value": try Self.json(word)],
            ["model": "AppBskyActorDefs.MutedWord", "value": try Self.json(endless)],
            // The check itself: a block of a handle, not a DID, is refused.
            ["model": "AppBskyGraphBlock.Record", "value": try Self.json(BlueskySync.blockRecord(subject: "alice.bsky.social", createdAt: now))],
        ]
        let verdicts = try #require(try AtprotoSDK.json("models", input: questions) as? [Any])
        #expect(verdicts.count == 4)
        for (index, verdict) in verdicts.prefix(3).enumerated() {
            #expect(verdict is NSNull, "\(index): \(verdict)")
        }
        #expect(verdicts[3] is String, "the SDK refuses a block whose subject is not a DID")
    }
}
