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
    /// A change by message ID was asked to refuse unknown IDs (`UnknownMessageIDs.refuse`) and
    /// `ids` (each once, in the order given) name no stored message, among the `given` IDs.
    /// Nothing was changed.
    case unknownMessages(ids: [String], given: Int)
    /// A value cannot be stored as given.
    case invalidValue(field: String, reason: String)
    /// A reference a person typed (a server's ID, a web address) names more than one stored
    /// message: the whole stored ID tells them apart.
    case ambiguousMessageReference(reference: String, matches: [String])
    /// The database could not be created or opened (permissions, missing directory, disk full).
    case cannotOpen(path: String, reason: String)
    /// The database cannot be written where it is: `unwritable` (the database file, its `-wal`
    /// or `-shm` file, or the directory that must hold them) is read-only for this process, for
    /// the system's `reason` (permissions, a read-only file system). Nothing was changed; reading
    /// still works (`TimelineStore.isReadOnly`).
    case readOnly(path: String, unwritable: String, reason: String)
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
            "\(path) is not a timeline database: \(reason). It was left as it was. Point --db or TIMELINE_DB at a timeline database, or move the file away."
        case let .databaseNewerThanLibrary(path, version, newest):
            "\(path) has schema version \(version), but this timeline knows versions up to \(newest). It was written by a newer timeline; upgrade timeline to use it. The file was not changed."
        case let .migrationNeeded(path, version, newest, bytes):
            "\(path) has schema version \(version) and needs a one-time upgrade to version \(newest), which takes a while at its size (\(bytes / 1_048_576) MiB, about ten seconds a million messages). Open it once without a migration size limit (`timeline upgrade`); nothing was changed."
        case let .busy(path, waited):
            "\(path) stayed locked by another process for \(waited) ms. Nothing was changed; try again when the other writer has finished, or raise the busy timeout."
        case let .unknownAuthor(messageID, authorID):
            "Message \(QuotedValue.quoted(messageID)) names author \(QuotedValue.quoted(authorID)), but no user has that ID. Add the user (a user with id \(QuotedValue.quoted(authorID))) in the same import or before it. Nothing was written."
        case let .unknownMessages(ids, given):
            Self.unknownMessagesExplanation(ids, given: given)
        case let .invalidValue(field, reason):
            "Invalid \(field): \(reason). Nothing was written."
        case let .ambiguousMessageReference(reference, matches):
            "\(QuotedValue.quoted(reference)) names \(Counted(matches.count, "stored message")): \(matches.prefix(Self.unknownIDsQuoted).map(QuotedValue.quoted).joined(separator: ", ")). Nothing was changed; give the whole ID of the one you mean."
        case let .cannotOpen(path, reason):
            "Cannot open \(path): \(reason)."
        case let .readOnly(path, unwritable, reason):
            "Cannot write \(path): \(Self.naming(unwritable, of: path)) is read-only (\(reason)). SQLite writes the database and keeps its -wal and -shm files beside it, so both the file and its directory must be writable: fix the permissions (`chmod u+w \(unwritable)`) or the mount, or copy the database somewhere writable and point --db or TIMELINE_DB at the copy. Nothing was changed; reading (show, stats, search, export, doctor) still works."
        case let .snapshotNotWritten(path, reason):
            "The change was saved, but the snapshot \(path) could not be rewritten: \(reason). The database is intact and the next `timeline show` reconciles; fix the cause and run `timeline snapshot`."
        case let .invalidSearch(error):
            error.description
        case let .sqlite(error):
            "\(error)"
        }
    }
}

extension TimelineStoreError {
    /// `.readOnly` naming what this process cannot write for the database at `path`: the
    /// directory that must hold its `-wal` and `-shm` (on a read-only file system, the whole
    /// place), else the file, its `-wal` or its `-shm`; `nil` when everything is writable (so the
    /// failure is something else).
    static func readOnly(forDatabaseAt path: String) -> TimelineStoreError? {
        for place in [FileSystem.parentDirectory(of: path), path, path + "-wal", path + "-shm"] where FileSystem.kind(at: place) != .missing {
            if let denial = FileSystem.writeDenial(at: place) { return .readOnly(path: path, unwritable: place, reason: denial.reason) }
        }
        return nil
    }

    /// How many IDs `.unknownMessages` quotes; the rest are counted.
    static let unknownIDsQuoted = 5

    private static func unknownMessagesExplanation(_ ids: [String], given: Int) -> String {
        var quoted = ids.prefix(unknownIDsQuoted).map(QuotedValue.quoted).joined(separator: ", ")
        if ids.count > unknownIDsQuoted { quoted += " and \(Counted.grouped(ids.count - unknownIDsQuoted)) more" }
        let what = given == 1 && ids.count == 1
            ? "No message has the ID \(quoted)"
            : "Of the \(Counted(given, "ID")) given, \(Counted.grouped(ids.count)) \(ids.count == 1 ? "matches" : "match") no message: \(quoted)"
        let fix = ids.count == 1 ? "correct that ID or leave it out" : "correct those IDs or leave them out"
        return what + ". Nothing was changed (all or nothing); \(fix). `timeline show --json | jq -r .id` lists the IDs of the newest messages."
    }

    private static func naming(_ unwritable: String, of path: String) -> String {
        if unwritable == path { return "the file" }
        if unwritable == FileSystem.parentDirectory(of: path) { return "its directory \(unwritable)" }
        return unwritable
    }

    /// Why creating the database at `path` failed, for a file-system call that failed on the way.
    static func notCreated(path: String, failure: FileSystemError) -> TimelineStoreError {
        if failure.isPermissionDenied {
            return .readOnly(path: path, unwritable: FileSystem.parentDirectory(of: failure.path), reason: failure.reason)
        }
        return .cannotOpen(path: path, reason: failure.description)
    }
}
