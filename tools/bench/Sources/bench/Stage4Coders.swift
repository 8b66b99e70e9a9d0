import CBenchLZ4
import Foundation
import TimelineKit

/// LZ4 frames with the settings of the snapshot file (64 KB independent blocks, block and
/// content checksums, content size), for the JSON and property-list payloads.
enum LZ4 {
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var preferences = LZ4F_preferences_t()
        preferences.frameInfo.blockSizeID = LZ4F_max64KB
        preferences.frameInfo.blockMode = LZ4F_blockIndependent
        preferences.frameInfo.contentChecksumFlag = LZ4F_contentChecksumEnabled
        preferences.frameInfo.blockChecksumFlag = LZ4F_blockChecksumEnabled
        preferences.frameInfo.contentSize = UInt64(input.count)
        let bound = LZ4F_compressFrameBound(input.count, &preferences)
        var output = [UInt8](repeating: 0, count: bound)
        let written = output.withUnsafeMutableBytes { out in
            input.withUnsafeBytes { inp in
                LZ4F_compressFrame(out.baseAddress, bound, inp.baseAddress, input.count, &preferences)
            }
        }
        precondition(LZ4F_isError(written) == 0, "LZ4F_compressFrame failed")
        output.removeSubrange(written...)
        return output
    }

    static func decompress(_ frame: [UInt8]) -> [UInt8] {
        var context: OpaquePointer?
        precondition(LZ4F_isError(LZ4F_createDecompressionContext(&context, UInt32(LZ4F_VERSION))) == 0)
        defer { LZ4F_freeDecompressionContext(context) }
        return frame.withUnsafeBytes { inp -> [UInt8] in
            var info = LZ4F_frameInfo_t()
            var consumed = frame.count
            precondition(LZ4F_isError(LZ4F_getFrameInfo(context, &info, inp.baseAddress, &consumed)) == 0)
            let size = Int(info.contentSize)
            var output = [UInt8](repeating: 0, count: size)
            var offset = consumed
            var produced = 0
            while offset < frame.count {
                var outSize = size - produced
                var inSize = frame.count - offset
                let hint = output.withUnsafeMutableBytes { out in
                    LZ4F_decompress(context, out.baseAddress! + produced, &outSize, inp.baseAddress! + offset, &inSize, nil)
                }
                precondition(LZ4F_isError(hint) == 0, "LZ4F_decompress failed")
                offset += inSize
                produced += outSize
                if hint == 0 { break }
            }
            return output
        }
    }
}

/// 4. The snapshot payload's coders, in process, on the same 200-message value.
func stageCoders(_ config: Config, _ data: DataSets, _ report: Report) throws {
    let db = try data.ensure(messages: config.small)
    let store = try TimelineStore(path: db, configuration: .init(createIfMissing: false, writesSnapshot: false))
    let snapshot = try store.makeSnapshot(limit: 200)
    let n = config.iterations
    report.begin("4. Snapshot payload coders, in process: \(snapshot.window.messages.count) messages, \(snapshot.window.related.count) related, \(snapshot.window.users.count) users (median of \(n) iterations)")

    struct Coder {
        var key: String
        var name: String
        var encode: () throws -> [UInt8]
        var decode: ([UInt8]) throws -> TimelineSnapshot
    }
    let binaryEncoder = BinaryEncoder(), binaryDecoder = BinaryDecoder()
    let jsonEncoder = JSONEncoder(), jsonDecoder = JSONDecoder()
    let plistEncoder = PropertyListEncoder()
    plistEncoder.outputFormat = .binary
    let plistDecoder = PropertyListDecoder()
    let coders: [Coder] = [
        Coder(key: "binary", name: "BinaryEncoder/BinaryDecoder",
              encode: { binaryEncoder.encode(snapshot) },
              decode: { try binaryDecoder.decode(TimelineSnapshot.self, from: $0) }),
        Coder(key: "binary_lz4", name: "binary + LZ4 (SnapshotFile, the real file)",
              encode: { try SnapshotFile.encode(snapshot) },
              decode: { try SnapshotFile.decode($0) }),
        Coder(key: "json", name: "JSONEncoder/JSONDecoder",
              encode: { [UInt8](try jsonEncoder.encode(snapshot)) },
              decode: { try jsonDecoder.decode(TimelineSnapshot.self, from: Data($0)) }),
        Coder(key: "json_lz4", name: "JSON + LZ4",
              encode: { LZ4.compress([UInt8](try jsonEncoder.encode(snapshot))) },
              decode: { try jsonDecoder.decode(TimelineSnapshot.self, from: Data(LZ4.decompress($0))) }),
        Coder(key: "plist", name: "PropertyList (binary)",
              encode: { [UInt8](try plistEncoder.encode(snapshot)) },
              decode: { try plistDecoder.decode(TimelineSnapshot.self, from: Data($0)) }),
        Coder(key: "plist_lz4", name: "PropertyList (binary) + LZ4",
              encode: { LZ4.compress([UInt8](try plistEncoder.encode(snapshot))) },
              decode: { try plistDecoder.decode(TimelineSnapshot.self, from: Data(LZ4.decompress($0))) }),
    ]
    var decodeMedian: [String: Double] = [:]
    for coder in coders {
        let bytes = try coder.encode()
        let roundTrip = try coder.decode(bytes) == snapshot
        let encode = try timeInProcess(iterations: n) { _ = try coder.encode() }
        let decode = try timeInProcess(iterations: n) { _ = try coder.decode(bytes) }
        decodeMedian[coder.key] = decode.median
        report.value("coders.\(coder.key).bytes", "\(coder.name): bytes", fmtBytes(bytes.count), raw: bytes.count, unit: "bytes",
                     note: roundTrip ? "round trip equal" : "ROUND TRIP DIFFERS")
        if !roundTrip { report.fail("\(coder.name): ROUND TRIP DIFFERS (decoding the encoded snapshot gives another value)") }
        report.time("coders.\(coder.key).encode", "\(coder.name): encode", encode)
        report.time("coders.\(coder.key).decode", "\(coder.name): decode", decode)
    }
    let ratio = decodeMedian["json"]! / decodeMedian["binary"]!
    let fileRatio = decodeMedian["json"]! / decodeMedian["binary_lz4"]!
    report.ratio("coders.ratio_json_decode_over_binary", "JSONDecoder / BinaryDecoder decode time", ratio)
    report.ratio("coders.ratio_json_decode_over_file", "JSONDecoder / SnapshotFile.decode (LZ4 + checks)", fileRatio)
    report.ratio("coders.ratio_plist_decode_over_binary", "PropertyListDecoder / BinaryDecoder decode time",
                 decodeMedian["plist"]! / decodeMedian["binary"]!)
    report.goal("decode_10x_faster_than_json", "snapshot decode >= 10x faster than JSONDecoder", target: ">= 10.0x",
                measured: "\(fmtRatio(ratio)) (\(fmtMs(decodeMedian["binary"]!)) vs \(fmtMs(decodeMedian["json"]!)); with LZ4 and checks \(fmtRatio(fileRatio)))",
                met: ratio >= 10)
    report.end()
}
