#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a whole timeline in the import format (see `JSONLinesImporter`), so that exporting and
/// importing into an empty store gives the same users and messages, and exporting again gives the
/// same bytes.
///
/// **Order.** Every user first, sorted by ID (byte order), then every message in timeline order,
/// **newest first** (by `created_at`, ties by ID, as `TimelineStore.timeline` pages): the export
/// streams page by page without holding the timeline in memory, and `head` shows the newest.
/// Users come first so the file reads naturally; the importer accepts any order.
///
/// **Canonical lines.** Fields in a fixed order; absent optionals left out; `likes`, `reposts`,
/// `replies`, `read` (so that an import restores the read flags) and `bot` always written; times
/// in UTC, `2026-11-20T10:00:00Z`, with `.mmm` only when the milliseconds are not zero. Control
/// characters are escaped, so a record is always one line and holds no raw terminal escape.
///
/// A message whose text exceeds the importer's limit (stored by other means) is still exported,
/// and importing that file will refuse it.
///
/// ```swift
/// try JSONLinesExporter(store: store).export(toFileDescriptor: STDOUT_FILENO)
/// ```
public struct JSONLinesExporter: Sendable {
    /// The store to read.
    public let store: TimelineStore
    /// Messages read from the store at a time.
    public var pageSize: Int
    /// The users to export: by default every stored user, with or without messages.
    private let allUsers: @Sendable () throws(TimelineStoreError) -> [User]

    /// Exports every stored user and message of `store`.
    public init(store: TimelineStore, pageSize: Int = 1000) {
        self.init(store: store, pageSize: pageSize, allUsers: { () throws(TimelineStoreError) in try store.allUsers() })
    }

    /// Exports the users `allUsers` returns instead of all stored users (e.g. to leave some out).
    /// The exported file imports only if it has the author of every message, or the target
    /// database does.
    public init(store: TimelineStore, pageSize: Int = 1000, allUsers: @escaping @Sendable () throws(TimelineStoreError) -> [User]) {
        self.store = store
        self.pageSize = max(1, pageSize)
        self.allUsers = allUsers
    }

    /// Writes the export to `sink` in chunks of about 64 KiB; each chunk is only valid during the
    /// call. Every chunk ends at a line end.
    @discardableResult
    public func export<SinkFailure: Error>(
        to sink: (UnsafeRawBufferPointer) throws(SinkFailure) -> Void
    ) throws(ExportError<SinkFailure>) -> ExportSummary {
        let chunkBytes = 64 * 1024
        var summary = ExportSummary()
        var buffer: [UInt8] = []
        buffer.reserveCapacity(chunkBytes + 4096)

        func flush() throws(ExportError<SinkFailure>) {
            guard !buffer.isEmpty else { return }
            summary.bytes += buffer.count
            // withUnsafeBytes rethrows untyped errors; the failure is carried out by hand to keep its type.
            var failure: SinkFailure?
            buffer.withUnsafeBytes { bytes in
                do throws(SinkFailure) { try sink(bytes) } catch { failure = error }
            }
            if let failure { throw .sink(failure) }
            buffer.removeAll(keepingCapacity: true)
        }

        let users: [User]
        do {
            users = try allUsers()
        } catch {
            throw .store(error)
        }
        for user in users.sorted(by: { $0.id.utf8.lexicographicallyPrecedes($1.id.utf8) }) {
            JSONLineEncoder.appendUser(user, to: &buffer)
            buffer.append(0x0A)
            summary.users += 1
            if buffer.count >= chunkBytes { try flush() }
        }

        var cursor: TimelineCursor?
        repeat {
            // The messages alone: a line names its author and reposted or quoted messages by ID.
            let page: (messages: [Message], nextCursor: TimelineCursor?)
            do {
                page = try store.timelineMessages(limit: pageSize, after: cursor)
            } catch {
                throw .store(error)
            }
            for message in page.messages {
                JSONLineEncoder.appendMessage(message, to: &buffer)
                buffer.append(0x0A)
                summary.messages += 1
                if buffer.count >= chunkBytes { try flush() }
            }
            cursor = page.nextCursor
        } while cursor != nil
        try flush()
        return summary
    }

    /// Writes the export to an open file descriptor (standard output, a file), which stays open.
    /// `name` is what errors call it.
    @discardableResult
    public func export(toFileDescriptor descriptor: Int32, name: String = "<stdout>") throws(ExportError<FileSystemError>) -> ExportSummary {
        try export { (bytes: UnsafeRawBufferPointer) throws(FileSystemError) in
            try FileSystemError.naming("write", name) { () throws(Errno) in try FileDescriptor(rawValue: descriptor).writeAll(bytes) }
        }
    }

    /// The user's line of the export, without a line ending.
    public static func line(for user: User) -> String {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendUser(user, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The message's line of the export, without a line ending.
    public static func line(for message: Message) -> String {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendMessage(message, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The message's line with an extra `"user"` field holding its author's user object (as the
    /// user's own line writes it), or `null` when the author is not known, then `"ref"`,
    /// `"warning"` (why a terminal folds the text: its content warning, when it has one) and the
    /// account's `interaction` with it, each of `"favourited"`, `"boosted"`, `"bookmarked"` and
    /// `"pending"` written only when true: what `timeline show --json` prints. The importer
    /// ignores these fields, so such a line still imports as the message.
    public static func line(for message: Message, author: User?, interaction: MessageInteraction? = nil) -> String {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendMessage(message, author: .some(author), interaction: interaction, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
