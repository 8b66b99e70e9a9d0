/// Why a snapshot file could not be read or written. A snapshot is only a cache: every one of these
/// is recovered from by rebuilding it from the database (`timeline snapshot`).
public enum SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No file at the path.
    case missing(path: String)
    /// The path is a symbolic link, a directory, a FIFO or a device, which is never followed,
    /// read or blocked on.
    case notARegularFile(path: String, kind: String)
    /// The file could not be read (permissions, I/O error).
    case unreadable(path: String, reason: String)
    /// The file, or the size it declares, is larger than a snapshot can be.
    case tooLarge(path: String, size: Int, limit: Int)
    /// The file ends before the snapshot does.
    case truncated(path: String)
    /// The file is not a timeline snapshot at all.
    case foreign(path: String)
    /// The file was written by a newer timeline in a format this one does not know.
    case newerFormat(path: String, version: Int, newestKnown: Int)
    /// The file is in an older format that this timeline no longer reads.
    case unsupportedFormat(path: String, version: Int)
    /// The file is damaged: a checksum does not match, or its contents do not decode.
    case corrupt(path: String, reason: String)
    /// The snapshot could not be written; the previous one, if any, is still in place.
    case notWritten(path: String, reason: String)

    public var description: String {
        let rebuild = "Run `timeline snapshot` to rebuild it from the database."
        return switch self {
        case let .missing(path): "No snapshot at \(path). \(rebuild)"
        case let .notARegularFile(path, kind): "\(path) is \(kind), not a snapshot file; it was not followed or read. Remove it, then run `timeline snapshot`."
        case let .unreadable(path, reason): "Cannot read the snapshot \(path): \(reason)."
        case let .tooLarge(path, size, limit): "The snapshot \(path) is too large (\(size) bytes, the limit is \(limit)). \(rebuild)"
        case let .truncated(path): "The snapshot \(path) is truncated. \(rebuild)"
        case let .foreign(path): "\(path) is not a timeline snapshot. \(rebuild)"
        case let .newerFormat(path, version, newest): "The snapshot \(path) has format version \(version); this timeline reads up to \(newest). It was written by a newer timeline. \(rebuild)"
        case let .unsupportedFormat(path, version): "The snapshot \(path) has old format version \(version), which this timeline no longer reads. \(rebuild)"
        case let .corrupt(path, reason): "The snapshot \(path) is damaged (\(reason)). \(rebuild)"
        case let .notWritten(path, reason): "Could not write the snapshot \(path): \(reason). The previous snapshot is unchanged."
        }
    }
}
