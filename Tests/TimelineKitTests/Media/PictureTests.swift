import Foundation
import Testing
@testable import TimelineKit

/// Pictures read before they are sent: format from the bytes, size from the header, a JPEG's
/// location taken out in place, the server's limits; hostile headers refused, never a crash.
@Suite struct PictureTests {
    @Test func eachFormatIsToldFromItsBytesWithItsSizeInPixels() throws {
        let png = try Picture(file: "a.jpg", bytes: PictureSamples.png(width: 640, height: 480))
        #expect((png.format, png.format.mimeType, png.width, png.height) == (.png, "image/png", 640, 480))
        let gif = try Picture(file: "b", bytes: PictureSamples.gif(width: 300, height: 2))
        #expect((gif.format, gif.width, gif.height) == (.gif, 300, 2))
        let webp = try Picture(file: "c", bytes: PictureSamples.webpLossless(width: 1000, height: 16384))
        #expect((webp.format, webp.width, webp.height) == (.webp, 1000, 16384))
        let jpeg = try Picture(file: "d", bytes: PictureSamples.jpeg(width: 4032, height: 3024))
        #expect((jpeg.format, jpeg.format.mimeType, jpeg.width, jpeg.height) == (.jpeg, "image/jpeg", 4032, 3024))
    }

    @Test func aJPEGsLocationIsBlankedInPlaceAndItsOrientationAndPixelsKept() throws {
        let original = PictureSamples.jpeg(width: 10, height: 20)
        let picture = try Picture(file: "holiday.jpg", bytes: original)
        #expect(picture.removedLocation)
        #expect(picture.bytes.count == original.count)
        #expect(!contains(picture.bytes, PictureSamples.latitude))
        #expect(!contains(picture.bytes, [0, 1, 0, 2, 0, 0, 0, 2, 0x4E]))  // the "N" reference entry
        // Orientation 6 still there, and everything from the frame header on unchanged.
        #expect(contains(picture.bytes, [0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, 6]))
        let frame = try #require(firstIndex(of: [0xFF, 0xC0], in: original))
        #expect(Array(picture.bytes[frame...]) == Array(original[frame...]))
        // Only bytes of the GPS IFD and its values changed, to zeros.
        let changed = zip(original, picture.bytes).filter { $0 != $1 }
        #expect(changed.allSatisfy { $0.1 == 0 })
        #expect((picture.width, picture.height) == (10, 20))
    }

    @Test func keepingTheLocationSendsTheBytesAsTheyAre() throws {
        let original = PictureSamples.jpeg(width: 10, height: 20)
        let picture = try Picture(file: "holiday.jpg", bytes: original, keepingLocation: true)
        #expect(picture.bytes == original)
        #expect(!picture.removedLocation)
        let plain = try Picture(file: "plain.jpg", bytes: PictureSamples.jpeg(width: 1, height: 1, withLocation: false))
        #expect(!plain.removedLocation)
    }

    @Test func aFileThatIsNotAPictureIsRefusedByItsBytesNotItsName() {
        #expect(throws: PictureError.notAPicture(file: "cat.png")) { try Picture(file: "cat.png", bytes: Array("not a picture".utf8)) }
        #expect(throws: PictureError.notAPicture(file: "empty.png")) { try Picture(file: "empty.png", bytes: []) }
    }

    @Test func aSizeOfZeroIsADamagedHeader() {
        #expect(throws: PictureError.damagedHeader(file: "z.png", format: .png)) {
            try Picture(file: "z.png", bytes: PictureSamples.png(width: 0, height: 10))
        }
    }

    /// Every prefix of every sample is read or refused naming the file; nothing crashes.
    @Test func everyTruncationIsReadOrRefusedNamingTheFile() {
        let samples = [PictureSamples.png(width: 3, height: 4), PictureSamples.gif(width: 3, height: 4),
                       PictureSamples.webpLossless(width: 3, height: 4), PictureSamples.jpeg(width: 3, height: 4)]
        for sample in samples {
            for length in 0 ..< sample.count {
                do {
                    _ = try Picture(file: "cut.bin", bytes: Array(sample.prefix(length)))
                } catch {
                    #expect(error.description.contains("cut.bin"))
                }
            }
        }
    }

    /// Random bytes after each magic number, and random changes to the samples: each is read
    /// or refused, in one pass (the JPEG walk only moves forward).
    @Test func hostileHeadersAreReadOrRefusedNeverACrash() {
        var generator = SplitMix64(seed: 36)
        let samples = [PictureSamples.png(width: 3, height: 4), PictureSamples.gif(width: 3, height: 4),
                       PictureSamples.webpLossless(width: 3, height: 4), PictureSamples.jpeg(width: 3, height: 4)]
        var refused = 0
        for round in 0 ..< 4000 {
            var bytes = samples[round % samples.count]
            if round % 2 == 0 {
                bytes = Array(bytes.prefix(round % 4 == 0 ? 3 : 12)) + (0 ..< Int.random(in: 0 ..< 200, using: &generator)).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            } else {
                for _ in 0 ..< Int.random(in: 1 ... 8, using: &generator) {
                    bytes[Int.random(in: 0 ..< bytes.count, using: &generator)] = UInt8.random(in: 0 ... 255, using: &generator)
                }
            }
            do {
                _ = try Picture(file: "fuzz.bin", bytes: bytes)
            } catch {
                refused += 1
                #expect(error.description.contains("fuzz.bin"))
            }
        }
        #expect(refused > 0)
    }

    @Test func aGPSOffsetOutsideItsSegmentIsRefusedNotFollowed() throws {
        var bytes = PictureSamples.jpeg(width: 10, height: 20)
        // The GPS IFD pointer (tag 88 25, type 4, count 1) made to point far away.
        let tag = try #require(firstIndex(of: [0x88, 0x25, 0, 4, 0, 0, 0, 1], in: bytes))
        bytes.replaceSubrange(tag + 8 ..< tag + 12, with: [0x7F, 0xFF, 0xFF, 0xFF])
        #expect(throws: PictureError.self) { try Picture(file: "far.jpg", bytes: bytes) }
        #expect(try Picture(file: "far.jpg", bytes: bytes, keepingLocation: true).bytes == bytes)
    }

    @Test func aFileIsReadThroughASymbolicLinkAndAMissingOneIsNamed() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("pictures-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("cat.png").path
        try Data(PictureSamples.png(width: 2, height: 2)).write(to: URL(fileURLWithPath: file))
        let link = directory.appendingPathComponent("latest.png").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: file)
        #expect(try Picture(file: link).width == 2)
        let missing = directory.appendingPathComponent("gone.png").path
        #expect { try Picture(file: missing) } throws: { error in
            guard case let .unreadable(file, _) = error as? PictureError else { return false }
            return file == missing
        }
    }

    @Test func theServersLimitsRefuseNamingTheFile() throws {
        let big = try Picture(file: "big.png", bytes: PictureSamples.png(width: 5000, height: 5000))
        let gif = try Picture(file: "anim.gif", bytes: PictureSamples.gif(width: 10, height: 10))
        let limits = MediaLimits(server: "example.social", mimeTypes: ["image/png", "image/jpeg", "video/mp4"],
                                 imageSizeLimit: 40, imageMatrixLimit: 16_777_216)
        #expect(limits.refusal(of: [gif]) == .typeRefused(file: "anim.gif", mimeType: "image/gif", server: "example.social",
                                                         accepted: ["image/jpeg", "image/png"]))
        #expect(limits.refusal(of: [big]) == .tooLarge(file: "big.png", bytes: big.bytes.count, limit: 40, server: "example.social"))
        var roomy = limits
        roomy.imageSizeLimit = nil
        #expect(roomy.refusal(of: [big]) == .tooManyPixels(file: "big.png", width: 5000, height: 5000, limit: 16_777_216, server: "example.social"))
        #expect(roomy.refusal(of: Array(repeating: big, count: 5)) == .tooMany(count: 5, limit: 4))
        #expect(MediaLimits.bluesky.refusal(of: [big, gif]) == nil)
        #expect(PictureError.tooLarge(file: "big.png", bytes: 2_000_000, limit: 1_000_000, server: "Bluesky").description.contains("\"big.png\""))
    }

    private func firstIndex(of needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        return (0 ... haystack.count - needle.count).first { Array(haystack[$0 ..< $0 + needle.count]) == needle }
    }

    private func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool { firstIndex(of: needle, in: haystack) != nil }
}
