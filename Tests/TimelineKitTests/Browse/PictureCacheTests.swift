import Foundation
import Synchronization
import Testing
@testable import TimelineKit

@Suite struct PictureCacheTests {
    private func directory() -> String {
        NSTemporaryDirectory() + "timeline-pictures-" + UUID().uuidString + "/pictures"
    }

    @Test func theStandardPlaceIsUnderXDGCacheHomeElseHome() {
        #expect(PictureCache.standardDirectory { ["XDG_CACHE_HOME": "/c", "HOME": "/h"][$0] } == "/c/timeline/pictures")
        #expect(PictureCache.standardDirectory { ["XDG_CACHE_HOME": "relative", "HOME": "/h"][$0] } == "/h/.cache/timeline/pictures")
        #expect(PictureCache.standardDirectory { _ in nil } == nil)
    }

    @Test func filesAreNamedByTheSHA256OfTheURLInAPrivateDirectory() throws {
        let cache = PictureCache(directory: directory())
        defer { try? FileManager.default.removeItem(atPath: cache.directory) }
        let url = "https://files.example/../../etc/passwd?x=/y"
        try cache.store([1, 2, 3], for: url)
        // SHA-256 of "abc", the FIPS 180-2 vector.
        #expect(PictureCache.fileName(for: "abc") == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory) == [PictureCache.fileName(for: url)])
        #expect(cache.read(url) == [1, 2, 3])
        #expect(cache.read("https://files.example/other") == nil)
        let mode = try FileManager.default.attributesOfItem(atPath: cache.directory)[.posixPermissions] as? Int
        #expect(mode == 0o700)
    }

    @Test func theOldestPicturesAreRemovedBeyondTheBound() throws {
        let cache = PictureCache(directory: directory(), sizeLimit: 250)
        defer { try? FileManager.default.removeItem(atPath: cache.directory) }
        for index in 0..<5 {
            try cache.store([UInt8](repeating: UInt8(index), count: 100), for: "https://files.example/\(index)")
            // Distinct modification times, whatever the file system's resolution.
            let path = cache.path(for: "https://files.example/\(index)")
            try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSince1970: Double(1_000_000 + index * 10))], ofItemAtPath: path)
        }
        let kept = (0..<5).filter { cache.read("https://files.example/\($0)") != nil }
        #expect(kept == [3, 4])
        // What is not the cache's own stays.
        try Data([9]).write(to: URL(fileURLWithPath: cache.directory + "/notes.txt"))
        try cache.store([UInt8](repeating: 7, count: 100), for: "https://files.example/5")
        #expect((0..<6).filter { cache.read("https://files.example/\($0)") != nil } == [4, 5])
        #expect(FileManager.default.fileExists(atPath: cache.directory + "/notes.txt"))
    }

    @Test func concurrentWritersOfOnePictureLeaveAWholeFile() async throws {
        let cache = PictureCache(directory: directory())
        defer { try? FileManager.default.removeItem(atPath: cache.directory) }
        let url = "https://files.example/same"
        let versions = (0..<8).map { [UInt8](repeating: UInt8($0), count: 200_000) }
        await withTaskGroup(of: Void.self) { group in
            for version in versions {
                group.addTask { try? cache.store(version, for: url) }
                group.addTask { if let read = cache.read(url) { #expect(versions.contains(read)) } }
            }
        }
        #expect(versions.contains(try #require(cache.read(url))))
        // No temporary file is left behind.
        #expect(try FileManager.default.contentsOfDirectory(atPath: cache.directory) == [PictureCache.fileName(for: url)])
    }
}

@Suite struct PictureFetcherTests {
    /// Answers by URL, and records what it was asked.
    final class Files: HTTPTransport, @unchecked Sendable {
        // @unchecked Sendable: both properties are Mutexes.
        let answers = Mutex<[String: HTTPResponse]>([:])
        let asked = Mutex<[HTTPRequest]>([])

        func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
            asked.withLock { $0.append(request) }
            guard let answer = answers.withLock({ $0[request.url] }) else {
                throw .cannotConnect(url: request.url, reason: "offline")
            }
            return answer
        }

        func stream(_ request: HTTPRequest, receive: @Sendable (_ status: Int, _ chunk: [UInt8]) -> Bool) async throws(HTTPTransportError) -> HTTPResponse {
            throw .unavailable(reason: "no streams")
        }
    }

    private func cache() -> PictureCache {
        PictureCache(directory: NSTemporaryDirectory() + "timeline-fetch-" + UUID().uuidString)
    }

    @Test func aPictureIsFetchedWithNoHeaderBoundedAndThenComesFromTheCache() async throws {
        let files = Files()
        let cache = cache()
        defer { try? FileManager.default.removeItem(atPath: cache.directory) }
        let url = "https://files.example/a.png"
        files.answers.withLock { $0[url] = HTTPResponse(status: 200, body: [1, 2, 3]) }
        let fetcher = PictureFetcher(transport: files, cache: cache)
        let first = try await fetcher.picture(at: url)
        #expect(first.bytes == [1, 2, 3] && !first.fromCache)
        let request = try #require(files.asked.withLock { $0.first })
        #expect(request.headers.isEmpty)
        #expect(request.maximumResponseBytes == 16 << 20 && request.timeout == .seconds(10))
        let second = try await fetcher.picture(at: url)
        #expect(second.bytes == [1, 2, 3] && second.fromCache)
        #expect(files.asked.withLock { $0.count } == 1)
    }

    @Test func redirectsAreFollowedThreeTimesAtMostEachTargetChecked() async throws {
        let files = Files()
        let fetcher = PictureFetcher(transport: files, cache: nil)
        files.answers.withLock {
            $0["https://a.example/1"] = HTTPResponse(status: 302, headers: [HTTPHeader(name: "Location", value: "/2")])
            $0["https://a.example/2"] = HTTPResponse(status: 301, headers: [HTTPHeader(name: "Location", value: "https://b.example/3")])
            $0["https://b.example/3"] = HTTPResponse(status: 307, headers: [HTTPHeader(name: "Location", value: "https://b.example/4")])
            $0["https://b.example/4"] = HTTPResponse(status: 200, body: [4])
            $0["https://b.example/5"] = HTTPResponse(status: 302, headers: [HTTPHeader(name: "Location", value: "https://a.example/1")])
            $0["https://c.example/x"] = HTTPResponse(status: 302, headers: [HTTPHeader(name: "Location", value: "file:///etc/passwd")])
        }
        #expect(try await fetcher.picture(at: "https://a.example/1").bytes == [4])
        await #expect(throws: PictureFetcher.Failure.tooManyRedirects) { try await fetcher.picture(at: "https://b.example/5") }
        await #expect(throws: PictureFetcher.Failure.refusedAddress("file:///etc/passwd")) { try await fetcher.picture(at: "https://c.example/x") }
    }

    @Test func anAddressThatIsNotHTTPSIsRefusedWithoutARequest() async {
        let files = Files()
        let fetcher = PictureFetcher(transport: files, cache: nil)
        for url in ["file:///etc/passwd", "javascript:alert(1)", "http://files.example/a.png", "ftp://x/y"] {
            await #expect(throws: PictureFetcher.Failure.refusedAddress(url)) { try await fetcher.picture(at: url) }
        }
        #expect(files.asked.withLock { $0.isEmpty })
    }

    @Test func offlineAnUncachedPictureSaysWhyInOneLine() async {
        let fetcher = PictureFetcher(transport: Files(), cache: nil)
        do {
            _ = try await fetcher.picture(at: "https://files.example/a.png")
            Issue.record("fetched offline")
        } catch {
            #expect(error.description.hasPrefix("not fetched: ") && !error.description.contains("\n"))
        }
    }
}
