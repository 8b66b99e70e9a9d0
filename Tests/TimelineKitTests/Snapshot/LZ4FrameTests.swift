import Foundation  // Process, to run the real `lz4` command; tests only, never in Sources.
import Testing
@testable import TimelineKit

/// The `lz4` command line tool, used to check that our frames are standard ones.
private let lz4Path = "/usr/bin/lz4"
private let lz4IsInstalled = FileManager.default.isExecutableFile(atPath: lz4Path)

/// Test data used by several tests, generated once.
private let oneMegabyteOfMixedData = mixedBytes(count: 1 << 20, seed: 1)
private let incompressibleBytes = randomBytes(count: 300_000, seed: 2)

/// A generous limit for tests that are not about the limit.
private let noLimit = 1 << 30

@Suite struct LZ4FrameTests {
    // MARK: Round trips

    @Test func emptyInputRoundTripsThroughAFrameThatRecordsContentSizeZero() throws {
        let frame = try LZ4Frame.compress([])
        #expect(frame == LZ4Frame.emptyFrame)
        // The hand-built frame carries the same flags as every other frame, and its header checksum is right.
        #expect(frame[4] == 0x7C)
        #expect(frame[14] == headerChecksum(Array(frame[4..<14])))
        #expect(try LZ4Frame.decompress(frame[...], maxContentSize: 0) == [])
    }

    @Test(arguments: [1, 2, 5, 12, 13, 100, 4096, 65_535, 65_536, 65_537, 60 * 1024, 200_000])
    func smallAndBlockBoundaryInputsRoundTrip(count: Int) throws {
        let input = mixedBytes(count: count, seed: UInt64(count))
        let frame = try LZ4Frame.compress(input)
        #expect(try LZ4Frame.decompress(frame[...], maxContentSize: count) == input)
    }

    @Test func oneMegabyteOfMixedDataRoundTrips() throws {
        let input = oneMegabyteOfMixedData
        let frame = try LZ4Frame.compress(input)
        #expect(frame.count < input.count / 2, "mixed data should compress; got \(frame.count) bytes")
        #expect(try LZ4Frame.decompress(frame[...], maxContentSize: input.count) == input)
    }

    @Test func incompressibleRandomBytesRoundTrip() throws {
        let input = incompressibleBytes
        let frame = try LZ4Frame.compress(input)
        // Stored as uncompressed blocks: only the frame's header (15 bytes), each block's size and
        // checksum (8), the end mark and the content checksum (8) are added.
        let blocks = (input.count + LZ4Frame.blockContentSize - 1) / LZ4Frame.blockContentSize
        #expect(frame.count == input.count + 15 + 8 * blocks + 8)
        #expect(try LZ4Frame.decompress(frame[...], maxContentSize: input.count) == input)
    }

    @Test func decompressesAFrameInsideALargerArray() throws {
        let input = Array("a slice that does not start at index zero".utf8)
        let frame = try LZ4Frame.compress(input)
        let container = [0xAA, 0xBB, 0xCC] + frame + [0xDD]
        #expect(try LZ4Frame.decompress(container[3..<(3 + frame.count)], maxContentSize: noLimit) == input)
    }

    @Test func frameHeaderRecordsContentSizeAndTurnsOnAllChecksums() throws {
        let input = mixedBytes(count: 70_000, seed: 3)
        let frame = try LZ4Frame.compress(input)
        #expect(Array(frame[0..<4]) == [0x04, 0x22, 0x4D, 0x18])
        // FLG: version 01, independent blocks, block checksums, content size, content checksum, no dictionary.
        #expect(frame[4] == 0b0111_1100)
        #expect(frame[5] == 0x40)  // BD: 64 KB blocks
        #expect(readLittleEndian(frame[6..<14]) == UInt64(input.count))
        #expect(frame[14] == headerChecksum(Array(frame[4..<14])))  // also validates this file's XXH32
    }

    // MARK: Interoperability with the `lz4` command

    /// Inputs for the `lz4` interoperability tests, named (rather than passed as arrays) so that Swift Testing
    /// does not have to encode a megabyte of test argument.
    enum Sample: String, CaseIterable {
        case empty, small, oneMegabyteMixed, incompressible

        var bytes: [UInt8] {
            switch self {
            case .empty: return []
            case .small: return Array("hello, timeline".utf8)
            case .oneMegabyteMixed: return oneMegabyteOfMixedData
            case .incompressible: return incompressibleBytes
            }
        }
    }

    @Test(.enabled(if: lz4IsInstalled), arguments: Sample.allCases)
    func lz4CommandDecompressesOurFrames(sample: Sample) throws {
        let frame = try LZ4Frame.compress(sample.bytes)
        #expect(try runLZ4(["-dc"], on: frame) == sample.bytes)
    }

    @Test(.enabled(if: lz4IsInstalled), arguments: [
        ["--content-size", "-BX"],
        ["--content-size", "-BX", "-BD"],  // linked blocks
        ["--content-size", "-BX", "-B4"],  // 64 KB blocks
        ["--content-size", "-BX", "-B4", "-BD"],
        ["--content-size", "-BX", "-9"],  // high compression
        ["--content-size", "-BX", "--fast=5"],
        ["--content-size"],  // no block checksums: still valid, content checksum still on
    ])
    func weDecompressFramesFromTheLZ4Command(arguments: [String]) throws {
        for input in [Sample.oneMegabyteMixed.bytes, Sample.incompressible.bytes, Array("x".utf8)] {
            let frame = try runLZ4(["-c"] + arguments, on: input)
            #expect(try LZ4Frame.decompress(frame[...], maxContentSize: input.count) == input, "\(arguments)")
        }
    }

    @Test(.enabled(if: lz4IsInstalled))
    func lz4CommandFrameWithoutContentSizeIsRefused() throws {
        let frame = try runLZ4(["-c", "-BX"], on: mixedBytes(count: 1000, seed: 8))
        #expect(throws: LZ4FrameError.missingContentSize) {
            try LZ4Frame.decompress(frame[...], maxContentSize: noLimit)
        }
    }

    // MARK: Hostile input

    @Test func emptyInputIsRefusedAsTruncated() {
        #expect(throws: LZ4FrameError.truncated) { try LZ4Frame.decompress([], maxContentSize: noLimit) }
    }

    @Test func everyOneByteInputIsRefused() {
        for byte in UInt8.min...UInt8.max {
            // 0x04 is the first byte of the magic number: the start of a frame that was cut short.
            let expected: LZ4FrameError = byte == 0x04 ? .truncated : .notAFrame
            #expect(throws: expected) { try LZ4Frame.decompress([byte], maxContentSize: noLimit) }
        }
    }

    @Test func randomBytesAreRefused() throws {
        var generator = SplitMix64(seed: 9)
        let header = Array(try LZ4Frame.compress(Array("header donor".utf8))[0..<15])
        for trial in 0..<2000 {
            let noise = generator.bytes(Int.random(in: 0...200, using: &generator))
            // Plain noise, noise behind the magic number, and noise behind a valid header (declaring 12 bytes).
            for input in [noise, LZ4Frame.magicNumber + noise, header + noise] {
                #expect(throws: LZ4FrameError.self, "trial \(trial)") {
                    try LZ4Frame.decompress(input[...], maxContentSize: noLimit)
                }
            }
        }
    }

    @Test func everyTruncationIsRefused() throws {
        let frames = [
            LZ4Frame.emptyFrame,
            try LZ4Frame.compress(Array("Timeline snapshot: hello, hello, hello!".utf8)),
            try LZ4Frame.compress(randomBytes(count: 300, seed: 10)),  // an uncompressed block
            try LZ4Frame.compress(repeatedPhrase(count: 140_000)),  // three blocks
            try LZ4Frame.compress(mixedBytes(count: 5000, seed: 13)),  // one block, compressed and literal runs
        ]
        for frame in frames {
            #expect(try LZ4Frame.decompress(frame[...], maxContentSize: noLimit).count >= 0)
            for length in 0..<frame.count {
                #expect(throws: LZ4FrameError.truncated, "\(length) of \(frame.count) bytes") {
                    try LZ4Frame.decompress(frame[..<length], maxContentSize: noLimit)
                }
            }
        }
    }

    /// Flips every bit of small frames one at a time; each damaged frame must be refused.
    ///
    /// Which flips the format can detect:
    /// - magic number: no longer a frame (no single flip turns it into another valid magic number);
    /// - FLG/BD descriptor and content size: covered by the header checksum, but that is only 8 bits of XXH32,
    ///   so any given descriptor flip keeps it valid with probability 1/256. Flips that then change the
    ///   frame's layout (version, reserved bits, flags for checksums, dictionary ID) still fail to parse,
    ///   and a changed content size fails the size check. Only three flips would then decode exactly as
    ///   before: B.Indep (independent blocks decode the same when read as linked) and the block size
    ///   64 KB -> 256 KB or 1 MB. For about 1.3% of content sizes one of those three collides; those flips
    ///   are genuinely undetectable, but they also change nothing (the content is returned intact), as
    ///   `harmlessHeaderFlipsCanPassTheOneByteHeaderChecksum` shows. None of them collides for the frames
    ///   below, so for these frames every flip is detected, and this test demands exactly that;
    /// - header checksum byte: always detected;
    /// - block size / uncompressed flag, end mark: the frame no longer parses, or the block checksum or
    ///   content checksum fails;
    /// - block data and block checksum: block checksum (XXH32, 32 bits);
    /// - content checksum: always detected.
    @Test func everySingleBitFlipIsRefused() throws {
        let frames = [
            LZ4Frame.emptyFrame,
            try LZ4Frame.compress(Array("Timeline snapshot: hello, hello, hello!".utf8)),
            try LZ4Frame.compress(randomBytes(count: 40, seed: 11)),  // an uncompressed block
            try LZ4Frame.compress(repeatedPhrase(count: 70_000)),  // two blocks, compressing to a few hundred bytes
        ]
        var undetected: [String] = []
        for (number, frame) in frames.enumerated() {
            #expect(frame.count < 1000)
            for index in frame.indices {
                for bit in 0..<8 {
                    var damaged = frame
                    damaged[index] ^= 1 << bit
                    do {
                        _ = try LZ4Frame.decompress(damaged[...], maxContentSize: noLimit)
                        undetected.append("frame \(number), byte \(index), bit \(bit)")
                    } catch {
                        // Refused, as it must be.
                    }
                }
            }
        }
        #expect(undetected == [])
    }

    /// The only single-bit flips the LZ4 frame format cannot detect, and why they do no harm.
    ///
    /// The header checksum is one byte (bits 8-15 of XXH32 of the descriptor), so for 1 frame header in 256 a
    /// given flip leaves it valid. A flip that then alters the layout still fails to parse, and a changed content
    /// size fails the size check, but three descriptor bits change nothing about how these frames decode:
    /// FLG bit 5 (B.Indep: our independent blocks decode identically when read as linked ones) and BD bits 4 and
    /// 5 (maximum block size 64 KB read as 256 KB or 1 MB: a limit our blocks stay under either way). For the
    /// content sizes below, found by search, the flipped header's checksum collides with the original's: the
    /// frame is accepted, and what comes back is exactly the original content, which the block and content
    /// checksums have verified. No single-bit flip anywhere else in a frame goes undetected.
    @Test(arguments: [
        (135, 4, 5),  // FLG B.Indep: independent -> linked
        (188, 5, 4),  // BD block size: 64 KB -> 256 KB
        (618, 5, 5),  // BD block size: 64 KB -> 1 MB
    ])
    func harmlessHeaderFlipsCanPassTheOneByteHeaderChecksum(count: Int, byte: Int, bit: Int) throws {
        let input = mixedBytes(count: count, seed: 14)
        var frame = try LZ4Frame.compress(input)
        frame[byte] ^= 1 << bit
        #expect(frame[14] == headerChecksum(Array(frame[4..<14])), "the flipped header's checksum still matches")
        #expect(try LZ4Frame.decompress(frame[...], maxContentSize: noLimit) == input)
    }

    /// Each kind of damage is reported with liblz4's name for it.
    @Test func damageIsReportedWithLZ4ErrorNames() throws {
        let frame = try LZ4Frame.compress(Array("Timeline snapshot: hello, hello, hello!".utf8))
        func damaging(_ index: Int) -> ArraySlice<UInt8> {
            var damaged = frame
            damaged[index] ^= 0x01
            return damaged[...]
        }
        #expect(throws: LZ4FrameError.notAFrame) { try LZ4Frame.decompress(damaging(0), maxContentSize: noLimit) }
        #expect(throws: LZ4FrameError.corrupt("ERROR_headerChecksum_invalid")) {
            try LZ4Frame.decompress(damaging(14), maxContentSize: noLimit)
        }
        #expect(throws: LZ4FrameError.corrupt("ERROR_blockChecksum_invalid")) {
            try LZ4Frame.decompress(damaging(20), maxContentSize: noLimit)  // first byte of block data
        }
        #expect(throws: LZ4FrameError.corrupt("ERROR_contentChecksum_invalid")) {
            try LZ4Frame.decompress(damaging(frame.count - 1), maxContentSize: noLimit)
        }
    }

    @Test func skippableFrameIsNotAFrame() {
        let skippable: [UInt8] = [0x50, 0x2A, 0x4D, 0x18, 0x04, 0x00, 0x00, 0x00, 1, 2, 3, 4]
        #expect(throws: LZ4FrameError.notAFrame) { try LZ4Frame.decompress(skippable[...], maxContentSize: noLimit) }
    }

    // MARK: Content size

    @Test func contentSizeAboveTheLimitIsRefused() throws {
        let input = mixedBytes(count: 1000, seed: 12)
        let frame = try LZ4Frame.compress(input)
        #expect(try LZ4Frame.decompress(frame[...], maxContentSize: 1000) == input)
        #expect(throws: LZ4FrameError.contentTooLarge(declared: 1000, limit: 999)) {
            try LZ4Frame.decompress(frame[...], maxContentSize: 999)
        }
        #expect(throws: LZ4FrameError.contentTooLarge(declared: 1000, limit: -1)) {
            try LZ4Frame.decompress(frame[...], maxContentSize: -1)
        }
    }

    /// A frame with a valid header declaring 2^40 bytes (1 TiB). Allocating that much would trap, so getting
    /// an error back at all shows that the size was refused before allocating. With a limit that allows it,
    /// the frame is still refused before allocating, because a few bytes cannot decompress to 1 TiB.
    @Test func hugeDeclaredContentSizeIsRefusedWithoutAllocating() throws {
        let body = try frameBody(of: Array("tiny".utf8))  // end mark + content checksum would follow for an empty frame
        let huge = forgedFrame(flags: 0x7C, contentSize: 1 << 40, body: body)
        #expect(throws: LZ4FrameError.contentTooLarge(declared: 1 << 40, limit: 1 << 20)) {
            try LZ4Frame.decompress(huge[...], maxContentSize: 1 << 20)
        }
        #expect(throws: LZ4FrameError.truncated) {
            try LZ4Frame.decompress(huge[...], maxContentSize: .max)
        }
        let maximal = forgedFrame(flags: 0x7C, contentSize: .max, body: body)
        #expect(throws: LZ4FrameError.contentTooLarge(declared: .max, limit: .max)) {
            try LZ4Frame.decompress(maximal[...], maxContentSize: .max)
        }
    }

    @Test func frameWithoutContentSizeIsRefused() throws {
        let input = Array("a frame whose header leaves out the content size".utf8)
        let body = try frameBody(of: input)
        // The same blocks behind a header with the content size: accepted (so the forging itself is sound) ...
        #expect(try LZ4Frame.decompress(forgedFrame(flags: 0x7C, contentSize: UInt64(input.count), body: body)[...],
                                        maxContentSize: noLimit) == input)
        // ... and behind a header without it (FLG bit 3 clear): refused.
        #expect(throws: LZ4FrameError.missingContentSize) {
            try LZ4Frame.decompress(forgedFrame(flags: 0x74, contentSize: nil, body: body)[...], maxContentSize: noLimit)
        }
    }

    @Test func blocksThatDoNotMatchTheDeclaredContentSizeAreRefused() throws {
        let input = repetitiveText(count: 70_000)
        let body = try frameBody(of: input)
        for declared in [0, 1, input.count - 1, input.count + 1, 65_536, 200_000] {
            let frame = forgedFrame(flags: 0x7C, contentSize: UInt64(declared), body: body)
            #expect(throws: LZ4FrameError.self, "declared \(declared)") {
                try LZ4Frame.decompress(frame[...], maxContentSize: noLimit)
            }
        }
        let empty = forgedFrame(flags: 0x7C, contentSize: 0, body: body)
        #expect(throws: LZ4FrameError.contentSizeMismatch(declared: 0)) {
            try LZ4Frame.decompress(empty[...], maxContentSize: noLimit)
        }
    }

    // MARK: Trailing bytes

    @Test func trailingBytesAreRefused() throws {
        let frame = try LZ4Frame.compress(Array("one frame, then something else".utf8))
        #expect(throws: LZ4FrameError.trailingBytes(1)) {
            try LZ4Frame.decompress((frame + [0])[...], maxContentSize: noLimit)
        }
        #expect(throws: LZ4FrameError.trailingBytes(frame.count)) {
            try LZ4Frame.decompress((frame + frame)[...], maxContentSize: noLimit)
        }
        #expect(throws: LZ4FrameError.trailingBytes(3)) {
            try LZ4Frame.decompress((LZ4Frame.emptyFrame + [1, 2, 3])[...], maxContentSize: noLimit)
        }
    }

    // MARK: Errors

    @Test func errorsDescribeTheProblemInWords() {
        #expect(LZ4FrameError.contentTooLarge(declared: 5000, limit: 4096).description.contains("5000 bytes"))
        #expect(LZ4FrameError.contentTooLarge(declared: 5000, limit: 4096).description.contains("4096"))
        #expect(LZ4FrameError.corrupt("ERROR_contentChecksum_invalid").description.contains("contentChecksum"))
        #expect(LZ4FrameError.trailingBytes(1).description.hasPrefix("1 unexpected byte follow"))
        #expect(LZ4FrameError.missingContentSize.description.contains("--content-size"))
        #expect(LZ4FrameError.truncated.description.contains("truncated"))
    }
}

// MARK: - Helpers

/// The blocks, end mark and content checksum of our frame for `input`: everything after its 15-byte header.
private func frameBody(of input: [UInt8]) throws -> [UInt8] {
    Array(try LZ4Frame.compress(input)[15...])
}

/// A frame header with the given FLG byte, 64 KB blocks, an optional content size and a correct header
/// checksum, followed by `body`.
private func forgedFrame(flags: UInt8, contentSize: UInt64?, body: [UInt8]) -> [UInt8] {
    var descriptor: [UInt8] = [flags, 0x40]
    if let contentSize {
        descriptor += (0..<8).map { UInt8(truncatingIfNeeded: contentSize >> (8 * $0)) }
    }
    return LZ4Frame.magicNumber + descriptor + [headerChecksum(descriptor)] + body
}

/// The LZ4 frame header checksum: the second byte of XXH32 of the descriptor (FLG through dictionary ID).
private func headerChecksum(_ descriptor: [UInt8]) -> UInt8 {
    UInt8(truncatingIfNeeded: xxh32(descriptor) >> 8)
}

/// XXH32 with seed 0, the checksum of the LZ4 frame format; here only to forge frame headers.
private func xxh32(_ data: [UInt8]) -> UInt32 {
    let prime1: UInt32 = 2_654_435_761, prime2: UInt32 = 2_246_822_519, prime3: UInt32 = 3_266_489_917
    let prime4: UInt32 = 668_265_263, prime5: UInt32 = 374_761_393
    func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { (value << count) | (value >> (32 - count)) }
    func word(_ index: Int) -> UInt32 { UInt32(readLittleEndian(data[index..<(index + 4)])) }
    func round(_ accumulator: UInt32, _ input: UInt32) -> UInt32 {
        rotate(accumulator &+ input &* prime2, 13) &* prime1
    }
    var index = 0
    var hash: UInt32
    if data.count >= 16 {
        var lanes: [UInt32] = [prime1 &+ prime2, prime2, 0, 0 &- prime1]
        while index + 16 <= data.count {
            for lane in 0..<4 { lanes[lane] = round(lanes[lane], word(index + 4 * lane)) }
            index += 16
        }
        hash = rotate(lanes[0], 1) &+ rotate(lanes[1], 7) &+ rotate(lanes[2], 12) &+ rotate(lanes[3], 18)
    } else {
        hash = prime5
    }
    hash &+= UInt32(truncatingIfNeeded: data.count)
    while index + 4 <= data.count {
        hash = rotate(hash &+ word(index) &* prime3, 17) &* prime4
        index += 4
    }
    while index < data.count {
        hash = rotate(hash &+ UInt32(data[index]) &* prime5, 11) &* prime1
        index += 1
    }
    hash ^= hash >> 15
    hash &*= prime2
    hash ^= hash >> 13
    hash &*= prime3
    hash ^= hash >> 16
    return hash
}

private func readLittleEndian(_ bytes: ArraySlice<UInt8>) -> UInt64 {
    bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
}

/// Runs `lz4` with `arguments` on a temporary file holding `input`, returning what it writes to stdout.
private func runLZ4(_ arguments: [String], on input: [UInt8]) throws -> [UInt8] {
    let file = FileManager.default.temporaryDirectory.appendingPathComponent("lz4-test-\(UUID().uuidString)")
    try Data(input).write(to: file)
    defer { try? FileManager.default.removeItem(at: file) }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: lz4Path)
    process.arguments = ["-q"] + arguments + [file.path]
    let output = Pipe()
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()  // read before waiting, so a full pipe cannot block lz4
    process.waitUntilExit()
    #expect(process.terminationStatus == 0, "lz4 \(arguments.joined(separator: " ")) failed")
    return [UInt8](data)
}

/// One phrase over and over: compresses to almost nothing, so that even multi-block frames are small.
private func repeatedPhrase(count: Int) -> [UInt8] {
    let phrase = Array("@someone posted a message to the timeline\n".utf8)
    return (0..<count).map { phrase[$0 % phrase.count] }
}

/// Text that repeats with small variations: compresses well, like a timeline snapshot.
private func repetitiveText(count: Int) -> [UInt8] {
    var text: [UInt8] = []
    var line = 0
    while text.count < count {
        text += Array("\(line): @someone posted a message to the timeline\n".utf8)
        line += 1
    }
    return Array(text.prefix(count))
}

private func randomBytes(count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    return generator.bytes(count)
}

/// Runs of random bytes, repeated bytes, short repeated patterns and text, in random order and lengths.
private func mixedBytes(count: Int, seed: UInt64) -> [UInt8] {
    var generator = SplitMix64(seed: seed)
    var bytes: [UInt8] = []
    bytes.reserveCapacity(count)
    let words = ["timeline", "message", "the", "reply", "@alice", "#swift", "\n", "lz4", "snapshot", " "]
        .map { Array($0.utf8) }
    while bytes.count < count {
        let length = Int.random(in: 1...2000, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0:
            bytes += generator.bytes(length)
        case 1:
            bytes += repeatElement(UInt8.random(in: .min ... .max, using: &generator), count: length)
        case 2:
            let pattern = (0..<Int.random(in: 2...9, using: &generator)).map { _ in
                UInt8.random(in: .min ... .max, using: &generator)
            }
            for index in 0..<length { bytes.append(pattern[index % pattern.count]) }
        default:
            for _ in 0..<(length / 4 + 1) {
                bytes += words[Int.random(in: 0..<words.count, using: &generator)]
                bytes.append(0x20)
            }
        }
    }
    return Array(bytes.prefix(count))
}
