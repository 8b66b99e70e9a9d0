import Foundation
import Testing
@testable import TimelineKit

/// `LZ4FrameDecoder` decompresses a frame block by block, only as far as it is asked, after
/// checking the whole frame's structure and block checksums.
@Suite struct LZ4FrameDecoderTests {
    /// 100,000 bytes of text that compress, no two blocks alike.
    static let text: [UInt8] = Array((0 ..< 4_000).map { "line \($0): the quick brown fox\n" }.joined().utf8.prefix(100_000))

    @Test func blocksAreDecompressedInOrderOnlyAsFarAsAsked() throws {
        let frame = try LZ4Frame.compress(Self.text)
        let decoder = try LZ4FrameDecoder.open(frame[...], maxContentSize: Self.text.count)
        let block = LZ4Frame.blockContentSize
        #expect(decoder.contentSize == Self.text.count)
        #expect(decoder.produced == 0)
        #expect(decoder.decompress(upTo: 1) == block)
        #expect(decoder.decompress(upTo: block) == block)
        #expect(decoder.decompress(upTo: block + 1) == 2 * block)
        let made = decoder.withContent { Array($0.prefix(2 * block)) }
        #expect(made == Array(Self.text.prefix(2 * block)))
        try decoder.finish()
        #expect(decoder.produced == Self.text.count)
        #expect(decoder.isIntact)
        #expect(decoder.withContent { Array($0) } == Self.text)
    }

    /// Every block's checksum is compared when the decoder is made, the blocks not yet
    /// decompressed included: a damaged last block is refused before anything is read.
    @Test func aDamagedLastBlockIsRefusedBeforeAnyBlockIsDecompressed() throws {
        var frame = try LZ4Frame.compress(Self.text)
        frame[frame.count - 20] ^= 0x10  // inside the last block (the end mark and content checksum are the last 8 bytes)
        #expect(throws: LZ4FrameError.corrupt("ERROR_blockChecksum_invalid")) {
            try LZ4FrameDecoder.open(frame[...], maxContentSize: Self.text.count)
        }
    }

    @Test func aFrameCutShortOrFollowedByMoreIsRefusedWhenMade() throws {
        let frame = try LZ4Frame.compress(Self.text)
        #expect(throws: LZ4FrameError.truncated) { try LZ4FrameDecoder.open(frame.dropLast(1), maxContentSize: Self.text.count) }
        #expect(throws: LZ4FrameError.trailingBytes(1)) { try LZ4FrameDecoder.open((frame + [0])[...], maxContentSize: Self.text.count) }
    }

    /// Only a file crafted to pass the block checksums gets this far: the block is refused when
    /// it is decompressed, and the whole frame by `finish()`.
    @Test func aBlockThatDoesNotDecompressFailsTheFinish() throws {
        let valid = try LZ4Frame.compress(Array(Self.text.prefix(100)))
        // The frame's header (declaring 100 bytes), one compressed block whose token asks for
        // more literals than it holds, with its right checksum; the end mark and a checksum.
        let garbage: [UInt8] = [0xF0, 0xFF, 0xFF, 0x01]
        var frame = Array(valid.prefix(15))
        frame.appendLittleEndian(UInt32(garbage.count))
        frame += garbage
        frame.appendLittleEndian(XXH32.checksum(garbage))
        frame.appendLittleEndian(UInt32(0))
        frame.appendLittleEndian(XXH32.checksum(Array(Self.text.prefix(100))))
        let decoder = try LZ4FrameDecoder.open(frame[...], maxContentSize: 100)
        #expect(decoder.decompress(upTo: 100) == 0)
        #expect(decoder.failure == .corrupt("ERROR_decompressionFailed"))
        #expect(throws: LZ4FrameError.corrupt("ERROR_decompressionFailed")) { try decoder.finish() }
    }

    /// A block may hold no more than the frame's block size (64 KB here), as liblz4's frame
    /// decoder demands: one crafted to decompress to more, with right checksums and a content
    /// size that two blocks could hold, is refused by both decoders alike.
    @Test func aBlockThatDecompressesPastTheBlockSizeIsRefused() throws {
        // A literal `a`, then a match of it 71,419 bytes long (offset 1; 4 + 15 + 280 × 255),
        // then five literals: 71,425 bytes from 291.
        let block: [UInt8] = [0x1F, 0x61, 0x01, 0x00] + Array(repeating: 0xFF, count: 280) + [0x00, 0x50] + Array("bbbbb".utf8)
        let content = [UInt8](repeating: 0x61, count: 71_420) + Array("bbbbb".utf8) + [0x63]
        var frame = Array(try LZ4Frame.compress(content).prefix(15))  // a header declaring content.count
        frame.appendLittleEndian(UInt32(block.count))
        frame += block
        frame.appendLittleEndian(XXH32.checksum(block))
        frame.appendLittleEndian(UInt32(1) | 0x8000_0000)  // one byte, stored
        frame += [0x63]
        frame.appendLittleEndian(XXH32.checksum([0x63]))
        frame.appendLittleEndian(UInt32(0))
        frame.appendLittleEndian(XXH32.checksum(content))
        #expect(throws: LZ4FrameError.self) { try LZ4Frame.decompress(frame[...], maxContentSize: content.count) }
        let decoder = try LZ4FrameDecoder.open(frame[...], maxContentSize: content.count)
        #expect(throws: LZ4FrameError.corrupt("ERROR_decompressionFailed")) { try decoder.finish() }
    }

    /// A frame `lz4` writes by default (no block checksums) is not one `compress` writes: it is
    /// decompressed whole by liblz4 when the decoder is made.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/lz4")))
    func aFrameOfAnotherShapeIsDecompressedWholeAtOnce() throws {
        let frame = try Self.lz4(["-c", "--content-size"], on: Self.text)
        let decoder = try LZ4FrameDecoder.open(frame[...], maxContentSize: Self.text.count)
        #expect(decoder.produced == Self.text.count)
        try decoder.finish()
        #expect(decoder.isIntact)
        #expect(decoder.withContent { Array($0) } == Self.text)
    }

    private static func lz4(_ arguments: [String], on input: [UInt8]) throws -> [UInt8] {
        let source = FileManager.default.temporaryDirectory.appendingPathComponent("lz4-decoder-\(UUID().uuidString)")
        try Data(input).write(to: source)
        defer { try? FileManager.default.removeItem(at: source) }
        let process = Process()
        let output = Pipe()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/lz4")
        process.arguments = arguments + [source.path]
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return Array(bytes)
    }
}
