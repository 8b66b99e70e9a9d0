import Foundation
import Testing
@testable import TimelineKit

/// Pictures on Bluesky (issue 36): a blob per picture, then `app.bsky.embed.images` with alt
/// text and aspect ratio (`recordWithMedia` with a quote), records the official SDK accepts;
/// through the outbox, offline then the next sync.
@Suite struct BlueskyPictureSDKTests {
    static let cid = "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"
    static let quoted = "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3l3qo2vuowo2b"
    static let quotedCID = "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"

    private func session(_ pds: FakePDS, _ fixture: SyncFixture) async throws -> BlueskyAccountSession {
        let client = BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: nil, transport: pds,
                                   policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        let session = try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        let account = Account(name: "alice.test", network: .bluesky, server: FakePDS.entryway, accountID: session.did,
                              acct: "alice.test", client: nil, secret: .session(session.renewable))
        return BlueskyAccountSession(account: account, client: .success(client))
    }

    private func prepare(_ pds: FakePDS) {
        pds.state.withLock {
            $0.posts[Self.quoted] = #"{"uri":"\#(Self.quoted)","cid":"\#(Self.quotedCID)","author":{"did":"did:plc:ewvi7nxzyoun6zhxrhs64oiz","handle":"bob.test"},"#
                + #""record":{"$type":"app.bsky.feed.post","text":"quoted","createdAt":"2026-11-26T05:00:00.000Z"},"indexedAt":"2026-11-26T05:00:00.000Z"}"#
        }
        pds.answer("com.atproto.repo.uploadBlob", FakePDS.json(200, #"{"blob":{"$type":"blob","ref":{"$link":"\#(Self.cid)"},"mimeType":"image/png","size":57}}"#))
        pds.answer("com.atproto.repo.createRecord", FakePDS.json(200, #"{"uri":"\#(Self.quoted)","cid":"\#(Self.quotedCID)"}"#))
    }

    private func file(_ fixture: SyncFixture, _ bytes: [UInt8], _ name: String) throws -> String {
        let path = fixture.directory.file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    private func records(_ pds: FakePDS) throws -> [[String: Any]] {
        try pds.requests.filter { $0.url.hasSuffix("/com.atproto.repo.createRecord") }.map { request in
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: Any])
            return try #require(body["record"] as? [String: Any])
        }
    }

    @Test func picturesWithAltTextAndAspectRatiosAndAQuoteAreRecordsTheSDKAccepts() async throws {
        let pds = FakePDS()
        prepare(pds)
        let fixture = try SyncFixture()
        let session = try await session(pds, fixture)
        let png = try file(fixture, PictureSamples.png(width: 640, height: 480), "a.png")
        let gif = try file(fixture, PictureSamples.gif(width: 20, height: 30), "b.gif")
        var plain = PostDraft(text: "two pictures")
        plain.pictures = [PostPicture(file: png, alt: "A cat 🐈 \"asleep\" @home;type=x"), PostPicture(file: gif, alt: nil)]
        _ = try await session.perform(.post(plain), in: fixture.store)
        var quoting = PostDraft(text: "and a quote", quoteOf: Self.quoted)
        quoting.pictures = [PostPicture(file: png, alt: "again")]
        _ = try await session.perform(.post(quoting), in: fixture.store)

        let uploads = pds.requests.filter { $0.url.hasSuffix("/com.atproto.repo.uploadBlob") }
        #expect(uploads.map { $0.headers.first { $0.matches("Content-Type") }?.value } == ["image/png", "image/gif", "image/png"])
        #expect(uploads.first?.body == PictureSamples.png(width: 640, height: 480))
        let written = try records(pds)
        #expect(written.count == 2)
        let embed = try #require(written[0]["embed"] as? [String: Any])
        #expect(embed["$type"] as? String == "app.bsky.embed.images")
        let images = try #require(embed["images"] as? [[String: Any]])
        #expect(images.map { $0["alt"] as? String } == ["A cat 🐈 \"asleep\" @home;type=x", ""])
        #expect(images.map { ($0["aspectRatio"] as? [String: Int]) ?? [:] } == [["width": 640, "height": 480], ["width": 20, "height": 30]])
        let withMedia = try #require(written[1]["embed"] as? [String: Any])
        #expect(withMedia["$type"] as? String == "app.bsky.embed.recordWithMedia")
        #expect((withMedia["media"] as? [String: Any])?["$type"] as? String == "app.bsky.embed.images")

        let verdicts = try #require(try AtprotoSDK.json("records", input: written) as? [Any])
        #expect(verdicts.count == 2)
        #expect(verdicts.allSatisfy { $0 is NSNull }, "refused: \(verdicts)")
    }

    @Test func theBlobCIDsOfThePostedPicturesComeBackInTheOrderOfThePictures() async throws {
        let pds = FakePDS()
        let second = "bafkreigh2akiscaildcqabsyg3dfr6chu3fgpregiymsck7e7aqa4s52zy"
        pds.answer("com.atproto.repo.uploadBlob",
                   FakePDS.json(200, #"{"blob":{"$type":"blob","ref":{"$link":"\#(Self.cid)"},"mimeType":"image/png","size":57}}"#),
                   FakePDS.json(200, #"{"blob":{"$type":"blob","ref":{"$link":"\#(second)"},"mimeType":"image/gif","size":35}}"#))
        pds.answer("com.atproto.repo.createRecord", FakePDS.json(200, #"{"uri":"\#(Self.quoted)","cid":"\#(Self.quotedCID)"}"#))
        let fixture = try SyncFixture()
        let session = try await session(pds, fixture)
        var draft = PostDraft(text: "two pictures")
        draft.pictures = [PostPicture(file: try file(fixture, PictureSamples.png(width: 64, height: 48), "a.png"), alt: "first"),
                          PostPicture(file: try file(fixture, PictureSamples.gif(width: 20, height: 30), "b.gif"), alt: "second")]
        let outcome = try await session.perform(.post(draft), in: fixture.store)
        guard case let .done(.posted(_, _, media)) = outcome.delivery else { Issue.record("not posted: \(outcome.delivery)"); return }
        #expect(media == [Self.cid, second])
        // The same CIDs the record's images name.
        let images = try #require((try records(pds).first?["embed"] as? [String: Any])?["images"] as? [[String: Any]])
        #expect(images.map { (($0["image"] as? [String: Any])?["ref"] as? [String: String])?["$link"] } == [Self.cid, second])
    }

    @Test func aPicturePostedOfflineIsPublishedOnceByTheNextSyncEvenWithItsFileDeleted() async throws {
        let pds = FakePDS()
        prepare(pds)
        let fixture = try SyncFixture()
        let session = try await session(pds, fixture)
        let png = try file(fixture, PictureSamples.png(width: 64, height: 64), "a.png")
        var draft = PostDraft(text: "from the train")
        draft.pictures = [PostPicture(file: png, alt: "the sea")]
        pds.state.withLock { $0.unreachable = [$0.requests.count] }
        let outcome = try await session.perform(.post(draft), in: fixture.store)
        guard case .waiting = outcome.delivery else { Issue.record("not kept: \(outcome.delivery)"); return }
        try FileManager.default.removeItem(atPath: png)
        let delivery = await session.sendPendingActions(in: fixture.store)
        #expect(delivery.stoppedBy == nil)
        let written = try records(pds)
        #expect(written.count == 1)
        let images = try #require((written.first?["embed"] as? [String: Any])?["images"] as? [[String: Any]])
        #expect(images.map { $0["alt"] as? String } == ["the sea"])
        #expect(pds.requests.filter { $0.url.hasSuffix("/com.atproto.repo.uploadBlob") && $0.body != nil }.count == 2)  // the cut one, then one
        #expect(try fixture.store.outbox(account: "alice.test").isEmpty)
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: fixture.store.outboxPicturesDirectory)) ?? []).isEmpty)
    }

    @Test func aPictureOverTheBlobLimitIsRefusedNamingItBeforeAnyUpload() async throws {
        let pds = FakePDS()
        prepare(pds)
        let fixture = try SyncFixture()
        let session = try await session(pds, fixture)
        let big = try file(fixture, PictureSamples.png(width: 9, height: 9) + [UInt8](repeating: 0, count: 1_000_000), "big.png")
        var draft = PostDraft(text: "too big")
        draft.pictures = [PostPicture(file: big, alt: "x")]
        await #expect(throws: PictureError.tooLarge(file: big, bytes: 1_000_041, limit: 1_000_000, server: "Bluesky")) {
            _ = try await session.perform(.post(draft), in: fixture.store)
        }
        #expect(pds.requests.filter { $0.url.hasSuffix("/com.atproto.repo.uploadBlob") }.isEmpty)
    }
}
