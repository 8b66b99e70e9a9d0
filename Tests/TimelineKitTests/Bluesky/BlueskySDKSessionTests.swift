import Foundation
import Testing

/// The loopback Bluesky server (`tools/bluesky-test-server`) speaks as a real entryway, PDS and
/// AppView do, judged by the official Python SDK's `Client`: it logs in at the entryway, moves to
/// the PDS the session's DID document names, reads the timeline and the notifications, and
/// everything it is given parses (JWTs, CIDs, `did:plc` identifiers, whole like records).
@Suite struct BlueskySDKSessionTests {
    private static func isPLC(_ did: String?) -> Bool {
        guard let did, did.hasPrefix("did:plc:") else { return false }
        let identifier = did.dropFirst(8).utf8
        return identifier.count == 24 && identifier.allSatisfy { (0x61 ... 0x7A).contains($0) || (0x32 ... 0x37).contains($0) }
    }

    @Test func theSDKsClientLogsInAtTheEntrywayMovesToThePDSAndReadsTheTimeline() throws {
        let answer = try #require(try AtprotoSDK.json("session") as? [String: Any])
        let state = try #require(answer["state"] as? [String: Any])

        // The session: the account's did:plc, and the PDS of its DID document, not the entryway.
        #expect(answer["did"] as? String == state["did"] as? String)
        #expect(Self.isPLC(answer["did"] as? String), "\(answer["did"] ?? "")")
        let pds = try #require(answer["pds"] as? String)
        #expect(pds == state["pds"] as? String)
        #expect(pds != answer["entryway"] as? String)
        let requests = try #require(answer["requests"] as? [[String: String]])
        #expect(requests.first == ["nsid": "com.atproto.server.createSession", "server": "entryway"])
        #expect(requests.dropFirst().allSatisfy { $0["server"] == "pds" }, "\(requests)")
        #expect(requests.filter { $0["nsid"] == "app.bsky.feed.getTimeline" }.count == 2)

        // Tokens the SDK decoded as JWTs: an access token for two hours, a refresh token with an ID.
        let access = try #require(answer["access"] as? [String: Any])
        #expect(access["scope"] as? String == "com.atproto.appPass")
        #expect(access["sub"] as? String == answer["did"] as? String)
        #expect((access["exp"] as? Int ?? 0) - (access["iat"] as? Int ?? 0) == 7200)
        let refresh = try #require(answer["refresh"] as? [String: Any])
        #expect(refresh["scope"] as? String == "com.atproto.refresh")
        #expect((refresh["jti"] as? String)?.isEmpty == false)

        // Two pages of thirty posts by did:plc authors, each post's CID a CIDv1 of dag-cbor and sha2-256.
        let timeline = try #require(answer["timeline"] as? [String])
        #expect(timeline.count == 60)
        #expect(Set(timeline).count == 60)
        let authors = try #require(answer["authors"] as? [String])
        #expect(!authors.isEmpty && authors.allSatisfy { Self.isPLC($0) }, "\(authors)")
        let cids = try #require(answer["cids"] as? [[String: Any]])
        #expect(cids.count == 61)
        for cid in cids {
            #expect(cid["version"] as? Int == 1 && cid["codec"] as? Int == 0x71 && cid["hash"] as? Int == 0x12 && cid["size"] as? Int == 32, "\(cid)")
        }

        // The notifications' records parse as their lexicons say: a like names its subject and time.
        #expect(answer["notifications"] as? [String] == ["like", "reply", "follow"])
        let like = try #require(answer["like"] as? [String: String])
        #expect(like["subject"]?.hasPrefix("at://\(state["did"] as? String ?? "?")/app.bsky.feed.post/") == true)
        #expect(like["created_at"] == "2024-03-01T11:29:30.000Z")
    }
}
