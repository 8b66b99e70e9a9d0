import Foundation
import Testing
@testable import TimelineKit

/// The records `list create` and `list add` write on Bluesky (issue 37), held to the official
/// atproto SDK's models (strict, string formats checked): what a PDS and every other app read.
@Suite struct BlueskyListSDKTests {
    static func json(_ bytes: [UInt8]) throws -> Any {
        try JSONSerialization.jsonObject(with: Data(bytes))
    }

    @Test func theListAndListItemRecordsAreWhatTheSDKAccepts() throws {
        let now = Date(timeIntervalSince1970: 1_795_000_000)
        let list = BlueskySync.listRecord(name: "Rust \"people\" 🦀", createdAt: now)
        let uri = "at://did:plc:kxcwo4hvymg66waeustcupu4/app.bsky.graph.list/3kxlistkey22a"
        let item = BlueskySync.listItemRecord(subject: "did:plc:utwv4glqqnkyz7dppayoiasi", list: uri, createdAt: now)
        let questions: [[String: Any]] = [
            ["model": "AppBskyGraphList.Record", "value": try Self.json(list)],
            ["model": "AppBskyGraphListitem.Record", "value": try Self.json(item)],
            // The check itself: an item naming a handle, not a DID, is refused.
            ["model": "AppBskyGraphListitem.Record",
             "value": try Self.json(BlueskySync.listItemRecord(subject: "alice.bsky.social", list: uri, createdAt: now))],
        ]
        let verdicts = try #require(try AtprotoSDK.json("models", input: questions) as? [Any])
        #expect(verdicts.count == 3)
        for (index, verdict) in verdicts.prefix(2).enumerated() {
            #expect(verdict is NSNull, "\(index): \(verdict)")
        }
        #expect(verdicts[2] is String, "the SDK refuses a list item whose subject is not a DID")
        let listObject = try #require(try Self.json(list) as? [String: Any])
        #expect(listObject["purpose"] as? String == "app.bsky.graph.defs#curatelist")
        #expect(listObject["name"] as? String == "Rust \"people\" 🦀")
    }
}
