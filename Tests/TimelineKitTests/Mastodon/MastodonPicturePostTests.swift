import Foundation
import Testing
@testable import TimelineKit

/// Pictures on Mastodon (issue 36): `POST /api/v2/media` as a multipart form of `file` and
/// `description`, the wait while the server processes (202, then 206), the status's
/// `media_ids` in order; through the outbox, with copies of the files.
@Suite struct MastodonPicturePostTests {
    /// What a shell, curl's `-F` or a form encoder could each mangle.
    static let alt = #"@/etc/passwd;type=text/html "quoted" \ back 🐈‍⬛ ; filename="x""#

    private func session(_ fixture: SyncFixture) -> MastodonAccountSession {
        let account = Account(name: fixture.account, network: .mastodon, server: FakeMastodonServer.base,
                              accountID: FakeMastodonServer.accountID(0), acct: "user0", client: nil, secret: .token(AccessToken("token")!))
        return MastodonAccountSession(account: account, transport: fixture.server, policy: RequestPolicy(maximumAttempts: 1),
                                      clock: fixture.clock.clock)
    }

    private func pictureFiles(_ fixture: SyncFixture) throws -> [String] {
        try [PictureSamples.png(width: 64, height: 48), PictureSamples.jpeg(width: 30, height: 20)].enumerated().map { index, bytes in
            let path = fixture.directory.file("picture-\(index).bin")
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    private func copies(_ fixture: SyncFixture) -> [String] {
        (try? FileManager.default.contentsOfDirectory(atPath: fixture.store.outboxPicturesDirectory)) ?? []
    }

    /// The part named `name` of a multipart body, as its bytes.
    static func part(_ name: String, of request: HTTPRequest) throws -> [UInt8]? {
        let type = try #require(request.headers.first { $0.matches("Content-Type") }?.value)
        let boundary = try #require(type.components(separatedBy: "boundary=").last)
        let body = request.body ?? []
        let separator = Array("--\(boundary)".utf8)
        var parts: [[UInt8]] = []
        var start = 0
        var index = 0
        while index + separator.count <= body.count {
            if Array(body[index ..< index + separator.count]) == separator {
                if index > start { parts.append(Array(body[start ..< index])) }
                index += separator.count
                start = index
            } else {
                index += 1
            }
        }
        for part in parts {
            let text = String(decoding: part.prefix(200), as: UTF8.self)
            guard text.contains("name=\"\(name)\"") else { continue }
            let headEnd = try #require((0 ..< part.count - 3).first { Array(part[$0 ..< $0 + 4]) == Array("\r\n\r\n".utf8) })
            return Array(part[(headEnd + 4)...].dropLast(2))  // the CRLF before the next boundary
        }
        return nil
    }

    @Test func picturesAreUploadedWithTheirAltTextByteForByteAndPostedInOrder() async throws {
        let fixture = try SyncFixture()
        let files = try pictureFiles(fixture)
        var draft = PostDraft(text: "two pictures")
        draft.pictures = [PostPicture(file: files[0], alt: Self.alt), PostPicture(file: files[1], alt: nil)]
        let outcome = try await session(fixture).perform(.post(draft), in: fixture.store)
        guard case let .done(.posted(message, _, _)) = outcome.delivery else { Issue.record("not posted: \(outcome.delivery)"); return }
        let uploads = fixture.server.requests.filter { $0.method == .post && $0.url.hasSuffix("/api/v2/media") }
        #expect(uploads.count == 2)
        #expect(try Self.part("description", of: uploads[0]) == Array(Self.alt.utf8))
        #expect(try Self.part("file", of: uploads[0]) == PictureSamples.png(width: 64, height: 48))
        // --no-alt: no description at all; the JPEG's location taken out before it left.
        #expect(try Self.part("description", of: uploads[1]) == nil)
        let sentJPEG = try #require(try Self.part("file", of: uploads[1]))
        #expect(sentJPEG.count == PictureSamples.jpeg(width: 30, height: 20).count)
        #expect(sentJPEG != PictureSamples.jpeg(width: 30, height: 20))
        // The wait: each picture looked at until processed (206 first).
        #expect(fixture.server.requests.filter { $0.method == .get && $0.url.contains("/api/v1/media/") }.count == 4)
        let status = try #require(fixture.server.requests.last { $0.url.hasSuffix("/api/v1/statuses") })
        let body = try #require(try JSONSerialization.jsonObject(with: Data(status.body ?? [])) as? [String: Any])
        #expect(body["media_ids"] as? [String] == ["m1", "m2"])
        #expect(message.text == "two pictures")
        #expect(copies(fixture).isEmpty)
    }

    @Test func thePostedMediaIDsComeBackInTheOrderOfThePictures() async throws {
        let fixture = try SyncFixture()
        let files = try pictureFiles(fixture)
        var draft = PostDraft(text: "two pictures")
        draft.pictures = [PostPicture(file: files[1], alt: "second file first"), PostPicture(file: files[0], alt: "then the first")]
        let outcome = try await session(fixture).perform(.post(draft), in: fixture.store)
        guard case let .done(.posted(_, _, media)) = outcome.delivery else { Issue.record("not posted: \(outcome.delivery)"); return }
        // The IDs `POST /api/v2/media` answered, as the status's `media_ids` named them.
        let status = try #require(fixture.server.requests.last { $0.url.hasSuffix("/api/v1/statuses") })
        let body = try #require(try JSONSerialization.jsonObject(with: Data(status.body ?? [])) as? [String: Any])
        #expect(media == ["m1", "m2"])
        #expect(body["media_ids"] as? [String] == media)
        let plain = try await session(fixture).perform(.post(PostDraft(text: "no pictures")), in: fixture.store)
        guard case let .done(.posted(_, _, none)) = plain.delivery else { Issue.record("not posted: \(plain.delivery)"); return }
        #expect(none.isEmpty)
    }

    @Test func aPicturePostedOfflineIsPublishedOnceWithItsAltTextByTheNextSyncEvenWithItsFileDeleted() async throws {
        let fixture = try SyncFixture()
        let files = try pictureFiles(fixture)
        var draft = PostDraft(text: "from the train")
        draft.pictures = [PostPicture(file: files[0], alt: Self.alt)]
        fixture.server.configure { $0.faults[0] = .timeout }
        let outcome = try await session(fixture).perform(.post(draft), in: fixture.store)
        guard case .waiting = outcome.delivery else { Issue.record("not kept: \(outcome.delivery)"); return }
        #expect(copies(fixture).count == 1)
        try FileManager.default.removeItem(atPath: files[0])
        let delivery = await session(fixture).sendPendingActions(in: fixture.store)
        #expect(delivery.stoppedBy == nil)
        let uploads = fixture.server.requests.filter { $0.method == .post && $0.url.hasSuffix("/api/v2/media") }
        #expect(uploads.count == 1)
        #expect(try Self.part("description", of: uploads[0]) == Array(Self.alt.utf8))
        #expect(fixture.server.requests.filter { $0.url.hasSuffix("/api/v1/statuses") }.count == 1)
        #expect(try fixture.store.outbox(account: fixture.account).isEmpty)
        #expect(copies(fixture).isEmpty)
    }

    @Test func aPostCutOffAfterItsUploadUploadsNothingAgain() async throws {
        let fixture = try SyncFixture()
        let files = try pictureFiles(fixture)
        var draft = PostDraft(text: "cut off")
        draft.pictures = [PostPicture(file: files[0], alt: "a cat")]
        // GET instance, POST media (202), GET media (206), GET media (200), then the status times out.
        fixture.server.configure { $0.faults[4] = .timeout }
        let outcome = try await session(fixture).perform(.post(draft), in: fixture.store)
        guard case .waiting = outcome.delivery else { Issue.record("not kept: \(outcome.delivery)"); return }
        let kept = try #require(try fixture.store.outbox(account: fixture.account).first)
        guard case let .post(waiting) = kept.change else { Issue.record("not a post"); return }
        #expect(waiting.pictures.map(\.uploaded) == ["m1"])
        _ = await session(fixture).sendPendingActions(in: fixture.store)
        #expect(fixture.server.requests.filter { $0.url.hasSuffix("/api/v2/media") }.count == 1)
        let status = try #require(fixture.server.requests.last { $0.url.hasSuffix("/api/v1/statuses") })
        let body = try #require(try JSONSerialization.jsonObject(with: Data(status.body ?? [])) as? [String: Any])
        #expect(body["media_ids"] as? [String] == ["m1"])
        #expect(try fixture.store.outbox(account: fixture.account).isEmpty)
    }

    @Test func aPictureTheServerDoesNotTakeIsRefusedNamingItBeforeAnyUpload() async throws {
        let fixture = try SyncFixture()
        let files = try pictureFiles(fixture)
        fixture.server.configure { $0.mediaLimits = #"{"supported_mime_types":["image/jpeg"],"image_size_limit":1000}"# }
        var draft = PostDraft(text: "refused")
        draft.pictures = [PostPicture(file: files[1], alt: "ok"), PostPicture(file: files[0], alt: "png")]
        await #expect(throws: PictureError.typeRefused(file: files[0], mimeType: "image/png", server: "social.example", accepted: ["image/jpeg"])) {
            _ = try await session(fixture).perform(.post(draft), in: fixture.store)
        }
        #expect(fixture.server.requests.filter { $0.url.hasSuffix("/api/v2/media") }.isEmpty)
        #expect(try fixture.store.outbox(account: fixture.account).isEmpty)
        #expect(copies(fixture).isEmpty)
    }
}

extension MastodonPicturePostTests {
    /// Takahē 0.11 answers every upload with a 500: refused once, not retried at every sync,
    /// saying that nothing was posted and what to do instead.
    @Test func anUploadTheServerFailsOnWith500IsRefusedAndNotKept() async throws {
        let fixture = try SyncFixture()
        let file = fixture.directory.file("p.png")
        try Data(PictureSamples.png(width: 2, height: 2)).write(to: URL(fileURLWithPath: file))
        var draft = PostDraft(text: "takahe")
        draft.pictures = [PostPicture(file: file, alt: "x")]
        fixture.server.configure { $0.faults[1] = .status(500, body: "<html>Absolute URL is not absolute!</html>") }
        let account = Account(name: fixture.account, network: .mastodon, server: FakeMastodonServer.base,
                              accountID: FakeMastodonServer.accountID(0), acct: "user0", client: nil, secret: .token(AccessToken("token")!))
        let session = MastodonAccountSession(account: account, transport: fixture.server, policy: RequestPolicy(maximumAttempts: 1),
                                             clock: fixture.clock.clock)
        await #expect {
            _ = try await session.perform(.post(draft), in: fixture.store)
        } throws: { error in
            guard case let .rejected(_, 500, reason) = error as? ServerError else { return false }
            return reason?.contains("Nothing was posted: post it without --image") == true
        }
        #expect(try fixture.store.outbox(account: fixture.account).isEmpty)
        #expect(fixture.server.requests.filter { $0.url.hasSuffix("/api/v1/statuses") }.isEmpty)
    }
}
