/// Imports users and messages from a JSON Lines file into a `TimelineStore`: all of it, or, when
/// any line is wrong, nothing.
///
/// ```swift
/// let summary = try JSONLinesImporter(store: store).importFile(atPath: "timeline.jsonl") { progress in
///     // called at most every 100 ms: draw a progress line on stderr
/// }
/// print("\(summary.messages) messages, \(summary.newMessages) new")
/// ```
///
/// ## The format
///
/// One JSON object per line, UTF-8 (RFC 8259 JSON, [JSON Lines](https://jsonlines.org)). Lines
/// end with LF or CRLF; the last line may have no line ending; a UTF-8 byte order mark at the
/// start of the file is skipped; blank lines (only spaces, tabs, CR) are skipped. Two record
/// types, told apart by `type`, in any order: a message may come before the user who wrote it.
///
/// ```json
/// {"type":"user","id":"u1","handle":"alice","name":"Alice Example"}
/// {"type":"message","id":"m1","author":"u1","text":"hello","created_at":"2026-11-20T10:00:00Z"}
/// ```
///
/// **user**: `id`, `handle`, `name` (required); `url` (string), `bot` (boolean, default `false`).
///
/// **message**: `id`, `author` (a user's `id`), `text` (may be `""`), `created_at` (required);
/// `edited_at` (time); `reply_to`, `repost_of`, `quote_of` (message IDs; the messages need not
/// exist); `reply_to_user` (user ID); `content_warning`, `url` (strings); `likes`, `reposts`,
/// `replies` (non-negative integers, default 0); `read` (boolean); `attachments` (array of
/// `{"kind": string, "url": string, "alt_text": string}`, only `kind` required).
///
/// - **Optional fields** may be `null`, which means the same as leaving them out.
/// - **Unknown fields** are ignored, so files from newer versions import. A *known* field with the
///   wrong type is an error, and so is a known field given twice in one object.
/// - **IDs** are non-empty strings, kept byte for byte (never interpreted as numbers), without
///   `\u0000` (SQLite's JSON functions, which carry lists of IDs to the database, end a string at
///   a NUL). A JSON integer is accepted too (Mastodon before 2.0 sent those) and kept as its
///   decimal digits, exactly as written. Negative or fractional numbers are refused.
/// - **Times** are RFC 3339: `2026-11-20T10:00:00Z`, a fraction of any length (`.5`,
///   `.123456`), `Z` or an offset (`+09:00`, `-05:00`); `t` and `z` may be lowercase. A time
///   without a zone, with a space for `T`, or that does not exist (`2026-02-30`, month 13, hour
///   24) is refused, and so is one outside the years 0001 to 9999 in UTC, which an export could
///   not write back. Stored in whole milliseconds: further digits are **truncated**, never
///   rounded. A leap second, `23:59:60` UTC, is stored as `23:59:59.999` (second 60 at any other
///   time is refused).
/// - **`read`** absent (or `null`) keeps the flag already stored, and a new message is unread; `read`
///   present sets it. So re-importing a file never marks read messages unread.
/// - **Strings**: every JSON escape, `\u0000` included. Characters outside the BMP written as
///   escapes must be surrogate pairs (`\ud83d\ude00` is 😀); a lone surrogate escape is an error
///   rather than silently becoming U+FFFD. Raw bytes must be valid UTF-8.
/// - **Limits**: a line is at most 1 MiB (1,048,576 bytes, line ending not counted); a message
///   `text` is at most 100,000 bytes of UTF-8 after unescaping; objects and arrays nest at most
///   64 deep.
/// - **Duplicates**: a user or message ID given twice in one file is stored once; the last line
///   wins. Importing the same file again changes nothing (not even the database's generation).
///
/// The whole import is one transaction, written in batches. Any error (a malformed line, an
/// author that neither the file nor the database has) rolls all of it back and is reported as an
/// `ImportError` with the file, line, column and field.
public struct JSONLinesImporter: Sendable {
    /// The longest line accepted, in bytes, without its line ending: 1 MiB.
    public static let maximumLineBytes = JSONLinesReader.maximumLineBytes
    /// The longest message `text` accepted, in bytes of UTF-8.
    public static let maximumTextBytes = MessageText.maximumBytes

    /// The store that receives the records.
    public let store: TimelineStore
    /// Records parsed before they are handed to the store together.
    public var batchSize: Int

    public init(store: TimelineStore, batchSize: Int = 1000) {
        self.store = store
        self.batchSize = max(1, batchSize)
    }

    /// Imports the file at `path`, or standard input when `path` is `-`.
    ///
    /// `progress` is called on this thread at most every 100 ms while reading, and once more at
    /// the end.
    @discardableResult
    public func importFile(atPath path: String, progress: (ImportProgress) -> Void = { _ in }) throws(ImportError) -> ImportSummary {
        try importRecords(from: JSONLinesReader(path: path), progress: progress)
    }

    /// Imports from an open file descriptor (a pipe, a socket, standard input), which stays open.
    /// `sourceName` is what errors call the input.
    @discardableResult
    public func importFile(
        fileDescriptor: Int32, sourceName: String, progress: (ImportProgress) -> Void = { _ in }
    ) throws(ImportError) -> ImportSummary {
        try importRecords(from: JSONLinesReader(fileDescriptor: fileDescriptor, sourceName: sourceName), progress: progress)
    }

    /// Imports every remaining record of `reader` in one transaction.
    @discardableResult
    public func importRecords(from reader: JSONLinesReader, progress: (ImportProgress) -> Void = { _ in }) throws(ImportError) -> ImportSummary {
        var authors = AuthorLines()
        do {
            return try store.write { transaction in
                try importRecords(from: reader, into: transaction, authors: &authors, progress: progress)
            }
        } catch let error as ImportError {
            throw error
        } catch let error as TimelineStoreError {
            if case let .unknownAuthor(messageID, authorID) = error {
                throw unknownAuthorError(messageID: messageID, authorID: authorID, authors: authors, source: reader.sourceName)
            }
            throw ImportError(source: reader.sourceName, problem: .store(error))
        } catch {
            // The body throws only ImportError and the store adds only TimelineStoreError.
            preconditionFailure("unexpected error from an import: \(error)")
        }
    }

    private func importRecords(
        from reader: JSONLinesReader, into transaction: TimelineTransaction,
        authors: inout AuthorLines, progress: (ImportProgress) -> Void
    ) throws -> ImportSummary {
        let before = try transaction.state()
        let changedBefore = transaction.upsertedRowsChanged
        var summary = ImportSummary()
        var users: [User] = []
        var messages: [(Message, ReadStateUpdate)] = []
        users.reserveCapacity(batchSize)
        messages.reserveCapacity(batchSize)
        var throttle = ProgressThrottle()

        func flush() throws {
            try transaction.upsert(users: users)
            for (message, readState) in messages {
                try transaction.upsert(message, readState: readState)
            }
            users.removeAll(keepingCapacity: true)
            messages.removeAll(keepingCapacity: true)
        }

        while let record = try reader.nextRecord() {
            switch record {
            case let .user(user):
                summary.users += 1
                authors.defined(user.id)
                users.append(user)
            case let .message(message, readState):
                summary.messages += 1
                authors.named(message.authorID, by: message.id, line: reader.lineNumber)
                messages.append((message, readState))
            }
            if users.count + messages.count >= batchSize { try flush() }
            if throttle.isDue(lines: reader.lineNumber, bytes: reader.bytesRead) {
                progress(ImportProgress(lines: reader.lineNumber, bytes: reader.bytesRead, totalBytes: reader.totalBytes))
            }
        }
        try flush()
        summary.lines = reader.lineNumber
        summary.bytes = reader.bytesRead
        progress(ImportProgress(lines: summary.lines, bytes: summary.bytes, totalBytes: reader.totalBytes))

        // Only inserts move the counts; the transaction counts inserted and changed rows.
        let after = try transaction.state()
        summary.newUsers = after.userCount - before.userCount
        summary.newMessages = after.messageCount - before.messageCount
        summary.changedRows = transaction.upsertedRowsChanged - changedBefore - summary.newUsers - summary.newMessages
        return summary
    }

    /// The store names one missing author, whichever its query meets first; this reports the
    /// missing author named earliest in the file, so the same file always gets the same error.
    private func unknownAuthorError(messageID: String, authorID: String, authors: AuthorLines, source: String) -> ImportError {
        var reported = (authorID: authorID, messageID: messageID, line: authors.firstNamed[authorID]?.line)
        let candidates = authors.firstNamed.keys.filter { !authors.definedIDs.contains($0) }
        // The transaction was rolled back: the store holds exactly the users stored before.
        if let stored = try? store.users(ids: candidates) {
            let storedIDs = Set(stored.map(\.id))
            for candidate in candidates where !storedIDs.contains(candidate) {
                guard let first = authors.firstNamed[candidate] else { continue }
                if reported.line.map({ first.line < $0 }) ?? true {
                    reported = (candidate, first.messageID, first.line)
                }
            }
        }
        return ImportError(source: source, line: reported.line, field: RecordField.author.key,
                           problem: .unknownAuthor(messageID: reported.messageID, authorID: reported.authorID))
    }
}
