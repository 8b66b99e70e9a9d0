import Foundation

/// What proves a file was left alone: its bytes, its modification time to the nanosecond, and
/// the names beside it (no `-wal`, `-shm`, `-journal` or temporary file appeared).
struct FileFingerprint: Equatable, CustomStringConvertible {
    let bytes: Data
    let modifiedSeconds: Int
    let modifiedNanoseconds: Int
    let neighbours: [String]

    init(_ path: String) throws {
        bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        var info = stat()
        guard stat(path, &info) == 0 else { throw CocoaError(.fileReadNoPermission) }
        modifiedSeconds = info.st_mtim.tv_sec
        modifiedNanoseconds = info.st_mtim.tv_nsec
        neighbours = try FileManager.default.contentsOfDirectory(atPath: (path as NSString).deletingLastPathComponent).sorted()
    }

    var description: String { "\(bytes.count) bytes, modified \(modifiedSeconds).\(modifiedNanoseconds), beside \(neighbours)" }
}
