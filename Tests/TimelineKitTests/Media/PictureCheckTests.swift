import Testing
@testable import TimelineKit

@Suite struct PictureCheckTests {
    private func checked(_ bytes: [UInt8]) throws -> String {
        let result = try PictureCheck.check(bytes)
        return "\(result.format.rawValue) \(result.width)x\(result.height)"
    }

    @Test func aWholePictureOfEachFormatPasses() throws {
        #expect(try checked(PictureSamples.png(width: 800, height: 600)) == "png 800x600")
        #expect(try checked(PictureSamples.jpeg(width: 640, height: 480)) == "jpeg 640x480")
        #expect(try checked(PictureSamples.gif(width: 3, height: 2)) == "gif 3x2")
        #expect(try checked(PictureSamples.webpLossless(width: 5, height: 7)) == "webp 5x7")
    }

    @Test func a30000By30000PNGOfAFewBytesIsRefusedFromItsHeader() {
        let bomb = PictureSamples.png(width: 30_000, height: 30_000)
        #expect(bomb.count < 100)
        #expect(throws: PictureCheck.Refusal.tooLarge(width: 30_000, height: 30_000)) { try PictureCheck.check(bomb) }
        // 10,000 a side is allowed, but not 10,000 × 5,000 (50 megapixels).
        #expect(throws: PictureCheck.Refusal.tooLarge(width: 10_000, height: 5_000)) {
            try PictureCheck.check(PictureSamples.png(width: 10_000, height: 5_000))
        }
        #expect((try? PictureCheck.check(PictureSamples.png(width: 10_000, height: 4_000))) != nil)
        #expect(throws: PictureCheck.Refusal.tooLarge(width: 10_001, height: 1)) { try PictureCheck.check(PictureSamples.png(width: 10_001, height: 1)) }
    }

    @Test func aTruncatedFileIsRefusedWhereverItIsCut() {
        let jpeg = PictureSamples.jpeg(width: 64, height: 64)
        #expect(throws: PictureCheck.Refusal.truncated(.jpeg)) { try PictureCheck.check(Array(jpeg.dropLast(2))) }
        // Cut inside the header: its size cannot be read.
        #expect(throws: PictureCheck.Refusal.damagedHeader(.jpeg)) { try PictureCheck.check(Array(jpeg.prefix(40))) }
        let png = PictureSamples.png(width: 4, height: 4)
        #expect(throws: PictureCheck.Refusal.truncated(.png)) { try PictureCheck.check(Array(png.dropLast(3))) }
        let gif = PictureSamples.gif(width: 4, height: 4)
        #expect(throws: PictureCheck.Refusal.truncated(.gif)) { try PictureCheck.check(Array(gif.dropLast())) }
        var webp = PictureSamples.webpLossless(width: 4, height: 4)
        webp[4] = 200  // says more bytes than there are
        #expect(throws: PictureCheck.Refusal.truncated(.webp)) { try PictureCheck.check(webp) }
        for end in 0..<jpeg.count { #expect((try? PictureCheck.check(Array(jpeg.prefix(end)))) == nil, "cut at \(end)") }
    }

    @Test func randomBytesAreNotAPicture() {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<4096).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let garbage = bytes.first == 0x89 || bytes.first == 0xFF || bytes.first == 0x47 || bytes.first == 0x52 ? [0] + bytes : bytes
        #expect(throws: PictureCheck.Refusal.notAPicture) { try PictureCheck.check(garbage) }
        #expect(PictureCheck.Refusal.notAPicture.description.contains("not a PNG, JPEG, GIF or WebP"))
    }
}
