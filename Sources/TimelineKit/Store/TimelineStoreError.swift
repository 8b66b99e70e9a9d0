/// Why a `TimelineStore` call failed, with what to do about it.
public enum TimelineStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No database exists at the path and the store was opened with `createIfMissing: false`.
    case databaseMissing(path: String)
    /// The file exists but is not a timeline database (another program's SQLite file, or not
    /// SQLite at all).
    case notATimelineDatabase(path: String, reason: String)
    /// The database was written by a newer version of TimelineKit; it was left untouched.
    case databaseNewerThanLibrary(path: String, schemaVersion: Int, newestKnown: Int)
    /// The database has an older schema and is larger than the configuration's
    /// `migrationSizeLimit`; it was left untouched. Opening it without that limit migrates it.
    case migrationNeeded(path: String, schemaVersion: Int, newestKnown: Int, bytes: Int)
    /// Another process kept the database locked for longer than the busy timeout.
    case busy(path: String, waitedMilliseconds: Int)
    /// A message names an author that no stored user has, at the end of the transaction.
    case unknownAuthor(messageID: String, authorID: String)
    /// A value cannot be stored as given.
    case invalidValue(field: String, reason: String)
    /// The database could not be created or opened (permissions, missing directory, disk full).
    case cannotOpen(path: String, reason: String)
    /// The change was committed, but the snapshot beside the database could not be rewritten.
    /// The database is fine and the old snapshot stays in place; the next `show` reconciles.
    case snapshotNotWritten(path: String, reason: String)
    /// A search query cannot be run as typed; the error says what to type instead.
    case invalidSearch(SearchQueryError)
    /// SQLite reported an error that none of the cases above describes.
    case sqlite(SQLiteError)

    /// The explanation, neutralised for a terminal like all untrusted text (`TerminalText.body`):
    /// it may quote IDs, paths and SQLite's messages, which a hostile file or server chose.
    public var description: String { TerminalText.body(explanation) }

    private var explanation: String {
        switch self {
        case let .databaseMissing(path):
            "No timeline database at \(path). Add messages with `timeline import` or `timeline post` to create it."
        case let .notATimelineDatabase(path, reason):
            "\(path) is not a timeline database (\(reason)). Point --db or TIMELINE_DB at a timeline database, or move the file away."
        case let .databaseNewerThanLibrary(path, version, newest):
            "\(path) has schema version \(version), but this timeline knows versions up to \(newest). It was written by a newer timeline; upgrade timeline to use it. The file was not changed."
        case let .migrationNeeded(path, version, newest, bytes):
            "\(path) has schema version \(version) and needs a one-time upgrade to version \(newest), which takes a while at its size (\(bytes / 1_048_576) MiB, about ten seconds a million messages). Open it once without a migration size limit (`timeline upgrade`); nothing was changed."
        case let .busy(path, waited):
            "\(path) stayed locked by another process for \(waited) ms. Nothing was changed; try again when the other writer has finished, or raise the busy timeout."
        case let .unknownAuthor(messageID, authorID):
            "Message \(ImportError.quoted(messageID)) names author \(ImportError.quoted(authorID)), but no user has that ID. Add the user (a user with id \(ImportError.quoted(authorID))) in the same import or before it. Nothing was written."
        case let .invalidValue(field, reason):
            "Invalid \(field): \(reason). Nothing was written."
        case let .cannotOpen(path, reason):
            "Cannot open \(path): \(reason)."
        case let .snapshotNotWritten(path, reason):
            "The change was saved, but the snapshot \(path) could not be rewritten: \(reason). The database is intact and the next `timeline show` reconciles; fix the cause and run `timeline snapshot`."
        case let .invalidSearch(error):
            error.description
        case let .sqlite(error):
            "\(error)"
        }
    }
}
