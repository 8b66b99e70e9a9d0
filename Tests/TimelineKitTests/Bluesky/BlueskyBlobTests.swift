import Foundation
import Testing
@testable import TimelineKit

/// `com.atproto.repo.uploadBlob`: the bytes go as they are with their type, and the answer is
/// read strictly.
@Suite struct BlueskyBlobTests {
    static let cid = "bafkreibme22gw2h7y2h7tg2fhqotaqjucnbc24deqo72b6mkl2egezxhvy"

    private func sync(_ pds: FakePDS) async throws -> BlueskySync {
        let fixture = try SyncFixture()
        let client = BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: nil, transport: pds,
                                   policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        return BlueskySync(store: fixture.store, account: "alice.test", client: client)
    }

    @Test func anUploadSendsTheBytesUnchangedWithTheirTypeAndReadsTheBlobBack() async throws {
        let pds = FakePDS()
        pds.answer("com.atproto.repo.uploadBlob", FakePDS.json(200, #"{"blob":{"$type":"blob","ref":{"$link":"\#(Self.cid)"},"mimeType":"image/png","size":6}}"#))
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x00, 0xFF]
        let blob = try await sync(pds).uploadBlob(bytes, mimeType: "image/png")
        #expect(blob == BlueskyBlob(cid: Self.cid, mimeType: "image/png", size: 6))
        let upload = try #require(pds.requests.last)
        #expect(upload.method == .post)
        #expect(upload.url == FakePDS.pds + "/xrpc/com.atproto.repo.uploadBlob")
        #expect(upload.body == bytes)
        #expect(upload.headers.filter { $0.matches("Content-Type") }.map(\.value) == ["image/png"])
        #expect(upload.headers.contains { $0.matches("Authorization") && $0.value == "Bearer access-1" })
        #expect(String(decoding: blob.recordJSON, as: UTF8.self)
            == #"{"$type":"blob","ref":{"$link":"\#(Self.cid)"},"mimeType":"image/png","size":6}"#)
    }

    @Test(arguments: [
        #"{"blob":{"ref":{"$link":"bafk rei"},"mimeType":"image/png","size":6}}"#,
        #"{"blob":{"ref":{"$link":"\#(String(repeating: "b", count: 129))"},"mimeType":"image/png","size":6}}"#,
        #"{"blob":{"ref":{},"mimeType":"image/png","size":6}}"#,
        #"{"blob":{"ref":{"$link":"bafk"},"mimeType":"image/png"}}"#,
        #"{"blob":{"ref":{"$link":"bafk"},"mimeType":"image/png","size":-1}}"#,
        #"{"blob":"bafk"}"#,
        #"{}"#,
    ])
    func anAnswerThatIsNotABlobIsRefusedNamingTheURL(answer: String) async throws {
        let pds = FakePDS()
        pds.answer("com.atproto.repo.uploadBlob", FakePDS.json(200, answer))
        await #expect {
            _ = try await sync(pds).uploadBlob([1, 2, 3], mimeType: "image/jpeg")
        } throws: { error in
            guard case let .invalidResponse(url, _) = error as? ServerError else { return false }
            return url.hasSuffix("/xrpc/com.atproto.repo.uploadBlob")
        }
    }

    @Test func aBlobTooLargeIsTheServersRefusal() async throws {
        let pds = FakePDS()
        pds.answer("com.atproto.repo.uploadBlob", FakePDS.json(400, #"{"error":"BlobTooLarge","message":"This file is too large. It is 1.2MB but the maximum size is 1MB."}"#))
        await #expect {
            _ = try await sync(pds).uploadBlob([UInt8](repeating: 0, count: 10), mimeType: "image/jpeg")
        } throws: { error in
            guard case let .rejected(_, 400, reason) = error as? ServerError else { return false }
            return reason?.contains("too large") == true
        }
    }
}
