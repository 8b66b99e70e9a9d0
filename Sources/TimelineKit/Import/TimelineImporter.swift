#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Imports a file in any format `timeline import` reads — JSON Lines, Mastodon API JSON, Twitter
/// API JSON — telling the format from the content when it is not given.
///
/// ```swift
/// let importer = TimelineImporter(store: store)
/// let summary = try importer.importFile(atPath: "home.json") { detection in
///     print("reading \(detection.summary)")     // "Mastodon statuses (a JSON array)"
/// }
/// ```
///
/// Every format follows the JSON Lines import's rules: the whole file is one transaction, IDs
/// already stored are updated in place (only when something differs, so importing the same file
/// again changes nothing, not even the database's generation), an error names the file, the line
/// and column and the field (a JSON path such as `[3].account.id`) and nothing is written. The
/// read flag of a message already stored is kept: a server never knows what the person read.
///
/// JSON Lines streams (see `JSONLinesImporter`). So do Mastodon and Twitter files: an array is
/// read element by element (`APIDocumentStream`), any other document whole (at most
/// `maximumInputBytes`), decoded by `MastodonDecoder` or `TwitterDecoder` and stored a thousand
/// values at a time in the import's one transaction. Detection (`FormatDetection`) reads
/// only the start of the input; from a pipe, the bytes it read are handed on with the rest, so
/// a JSON Lines pipe still streams.
public struct TimelineImporter: Sendable {
    /// The largest single value of a Mastodon or Twitter file, in bytes: 256 MiB. An array's
    /// elements count one by one, so an array of any size is read.
    public static let maximumInputBytes = APIDocumentStream.maximumValueBytes
    /// How much of the input detection may read.
    static let detectionBytes = 1 << 20

    /// The store that receives the users and messages.
    public let store: TimelineStore

    public init(store: TimelineStore) {
        self.store = store
    }

    /// Imports the file at `path`, or standard input when `path` is `-`, in `format`, or in the
    /// format its content shows when `format` is `nil`; `detected` is then called once with what
    /// was detected, before anything is imported.
    ///
    /// With `namespace` (`timeline import --account NAME`: the server of the account the file was
    /// saved from), the file is read as Mastodon API JSON and its IDs are stored in that server's
    /// namespace, as `MastodonSync` stores them, so the file and the sync meet on the same messages.
    ///
    /// - Throws: `ImportError`: `.unknownFormat` when no format fits, the decoders' and the
    ///   store's errors otherwise. Nothing is written when it throws.
    @discardableResult
    public func importFile(
        atPath path: String, format: ImportFormat? = nil, namespace: MastodonNamespace? = nil,
        detected: (FormatDetection) -> Void = { _ in },
        progress: (ImportProgress) -> Void = { _ in }
    ) throws(ImportError) -> ImportSummary {
        let format = namespace == nil ? format : .mastodon
        let sourceName = path == "-" ? "<stdin>" : path
        if format == .jsonl {
            return try JSONLinesImporter(store: store).importFile(atPath: path, progress: progress)
        }
        let input = try Input(path: path, sourceName: sourceName)
        defer { input.release() }
        var bytes: [UInt8] = []
        var chosen = format ?? .jsonl
        if format == nil {
            let detection: FormatDetection
            if input.isRegularFile {
                let start = try input.peek(Self.detectionBytes)
                var outcome = FormatDetection.detect(start, isComplete: start.count < Self.detectionBytes)
                if outcome == .needsMore { outcome = try Self.detectReadingOn(&bytes, from: input) }
                detection = try Self.decide(outcome, sourceName)
                if detection.format == .jsonl {
                    detected(detection)
                    return try JSONLinesImporter(store: store).importFile(atPath: path, progress: progress)
                }
            } else {
                var outcome = FormatDetection.Outcome.needsMore
                while outcome == .needsMore, bytes.count < Self.detectionBytes {
                    let chunk = try input.nextBytes(1 << 16)
                    bytes += chunk
                    outcome = FormatDetection.detect(bytes, isComplete: chunk.isEmpty)
                }
                if outcome == .needsMore { outcome = try Self.detectReadingOn(&bytes, from: input) }
                detection = try Self.decide(outcome, sourceName)
                if detection.format == .jsonl {
                    detected(detection)
                    return try importJSONLines(prefix: bytes, rest: input.descriptor, sourceName: sourceName, progress: progress)
                }
            }
            detected(detection)
            chosen = detection.format
        }
        let read = bytes
        guard let decoder = try TimelineDecoders.decoder(for: chosen, path: path, start: { () throws(ImportError) in
            read.isEmpty && input.isRegularFile ? try input.peek(512) : read
        }) else {
            preconditionFailure("JSON Lines is imported by JSONLinesImporter above")
        }
        var stream = APIDocumentStream(file: input.descriptor, alreadyRead: bytes, sourceName: sourceName)
        return try storeStreaming(&stream, sourceName: sourceName, totalBytes: input.totalBytes, namespace: namespace,
                                  decoder: decoder, progress: progress)
    }

    /// Decodes and stores the values of `stream` in one transaction, a batch of values at a
    /// time, so that memory stays bounded whatever the size of the file: only the IDs met so far
    /// are kept, in a temporary table on disk, to count each user and message once.
    private func storeStreaming(
        _ stream: inout APIDocumentStream, sourceName: String, totalBytes: Int?, namespace: MastodonNamespace?,
        decoder: any TimelineDecoder,
        progress: (ImportProgress) -> Void
    ) throws(ImportError) -> ImportSummary {
        var summary = ImportSummary()
        var throttle = ProgressThrottle()
        do {
            summary = try store.write { transaction in
                let before = try transaction.state()
                let changedBefore = transaction.upsertedRowsChanged
                let seen = try ImportedIDs(transaction)
                var batch = DecodedTimeline()
                func flush() throws {
                    let timeline = namespace?.apply(to: batch) ?? batch
                    try seen.add(timeline)
                    try transaction.upsert(users: timeline.users)
                    try transaction.upsert(messages: timeline.messages, readState: .keepStored)
                    batch = DecodedTimeline()
                }
                while let value = try stream.next() {
                    do throws(JSONLineFailure) {
                        if let index = value.index {
                            try decoder.decode(element: value.node, index: index, into: &batch)
                        } else {
                            try decoder.decode(document: value.node, into: &batch)
                        }
                    } catch {
                        throw stream.placed(error)
                    }
                    if batch.messages.count + batch.users.count >= Self.batchSize { try flush() }
                    if throttle.isDue(lines: stream.lineCount, bytes: stream.bytesRead) {
                        progress(ImportProgress(lines: stream.lineCount, bytes: stream.bytesRead, totalBytes: totalBytes))
                    }
                }
                try flush()
                let counts = try seen.counts()
                try seen.drop()
                let after = try transaction.state()
                let newUsers = after.userCount - before.userCount
                let newMessages = after.messageCount - before.messageCount
                return ImportSummary(
                    users: counts.users, messages: counts.messages, newUsers: newUsers, newMessages: newMessages,
                    changedRows: transaction.upsertedRowsChanged - changedBefore - newUsers - newMessages)
            }
        } catch let error as ImportError {
            throw error
        } catch let error as TimelineStoreError {
            throw ImportError(source: sourceName, problem: .store(error))
        } catch {
            preconditionFailure("unexpected error from an import: \(error)")
        }
        summary.bytes = stream.bytesRead
        summary.lines = stream.lineCount
        progress(ImportProgress(lines: summary.lines, bytes: summary.bytes, totalBytes: totalBytes ?? summary.bytes))
        return summary
    }

    /// Values decoded before their users and messages are stored: a few hundred kilobytes.
    static let batchSize = 1_000

    /// Stores decoded users and messages in one transaction: upserts, each changing a stored row
    /// only when it differs, with the read flags of stored messages kept.
    ///
    /// `users` and `messages` of the summary count what `timeline` holds (each ID once).
    @discardableResult
    public func store(_ timeline: DecodedTimeline, sourceName: String) throws(ImportError) -> ImportSummary {
        do {
            return try store.write { transaction in
                let before = try transaction.state()
                let changedBefore = transaction.upsertedRowsChanged
                try transaction.upsert(users: timeline.users)
                try transaction.upsert(messages: timeline.messages, readState: .keepStored)
                // Only inserts move the counts; the transaction counts inserted and changed rows.
                let after = try transaction.state()
                let newUsers = after.userCount - before.userCount
                let newMessages = after.messageCount - before.messageCount
                return ImportSummary(
                    users: timeline.users.count, messages: timeline.messages.count,
                    newUsers: newUsers, newMessages: newMessages,
                    changedRows: transaction.upsertedRowsChanged - changedBefore - newUsers - newMessages)
            }
        } catch let error as TimelineStoreError {
            throw ImportError(source: sourceName, problem: .store(error))
        } catch {
            // The body throws only TimelineStoreError.
            preconditionFailure("unexpected error from an import: \(error)")
        }
    }

    /// Detection when the first value says nothing of its format within `detectionBytes`: a
    /// status whose `content` comes before its `account` may hold megabytes. Such a value is no
    /// JSON Lines record (a line holds at most 1 MiB) but a Mastodon or Twitter document, which
    /// is read whole anyway, or a broken file: so the input is read on (to `bytes`, which
    /// already holds what was read) until the value says what it is, up to `maximumInputBytes`,
    /// and the decoder that follows reports what is really wrong with it rather than detection
    /// calling it too short. The reads double in size, so detection scans the input a bounded
    /// number of times.
    private static func detectReadingOn(_ bytes: inout [UInt8], from input: Input) throws(ImportError) -> FormatDetection.Outcome {
        var outcome = FormatDetection.Outcome.needsMore
        while outcome == .needsMore {
            let chunk = try input.nextBytes(min(max(bytes.count, detectionBytes), maximumInputBytes + 1 - bytes.count))
            bytes += chunk
            guard bytes.count <= maximumInputBytes else {
                throw ImportError(source: input.sourceName, problem: .inputTooLarge(limit: maximumInputBytes))
            }
            outcome = FormatDetection.detect(bytes, isComplete: chunk.isEmpty)
        }
        return outcome
    }

    private static func decide(_ outcome: FormatDetection.Outcome, _ sourceName: String) throws(ImportError) -> FormatDetection {
        switch outcome {
        case let .detected(detection): return detection
        case let .unknown(reason): throw ImportError(source: sourceName, problem: .unknownFormat(reason))
        case .needsMore: throw ImportError(source: sourceName, problem: .unknownFormat("the input ends too early"))
        }
    }

    /// JSON Lines from a pipe whose first bytes were read for detection: the reader starts from
    /// those bytes and goes on with the pipe, so it still streams.
    private func importJSONLines(
        prefix: [UInt8], rest: FileDescriptor, sourceName: String, progress: (ImportProgress) -> Void
    ) throws(ImportError) -> ImportSummary {
        try JSONLinesImporter(store: store).importRecords(
            from: JSONLinesReader(alreadyRead: prefix, then: rest, sourceName: sourceName), progress: progress)
    }

    /// The input: a file opened here, or standard input.
    private struct Input {
        let descriptor: FileDescriptor
        let sourceName: String
        let isRegularFile: Bool
        let ownsDescriptor: Bool

        /// The bytes left from the current offset of a regular file, for progress.
        var totalBytes: Int? {
            guard isRegularFile, let size = try? descriptor.status().size else { return nil }
            return size - (descriptor.offset() ?? 0)
        }

        init(path: String, sourceName: String) throws(ImportError) {
            self.sourceName = sourceName
            if path == "-" {
                descriptor = .standardInput
                ownsDescriptor = false
                isRegularFile = (try? descriptor.status().kind) == .regularFile
                guard (try? descriptor.status().kind) != .directory else {
                    throw ImportError(source: sourceName, problem: .cannotRead(FileSystemError(operation: "read", path: sourceName, code: .isADirectory)))
                }
            } else {
                do {
                    descriptor = try FileDescriptor.openForReading(path)
                } catch {
                    throw ImportError(source: sourceName, problem: .cannotRead(error))
                }
                ownsDescriptor = true
                isRegularFile = (try? descriptor.status().kind) == .regularFile
            }
        }

        func release() {
            if ownsDescriptor { descriptor.close() }
        }

        /// Up to `count` bytes from the current offset, without moving it (regular files only).
        func peek(_ count: Int) throws(ImportError) -> [UInt8] {
            do {
                return try descriptor.read(upTo: count, atOffset: descriptor.offset() ?? 0)
            } catch {
                throw failure(error)
            }
        }

        /// Up to `count` bytes, as many as have arrived; empty at the end of the input.
        func nextBytes(_ count: Int) throws(ImportError) -> [UInt8] {
            do {
                return try descriptor.read(atMost: count)
            } catch {
                throw failure(error)
            }
        }

        private func failure(_ code: Errno) -> ImportError {
            ImportError(source: sourceName, problem: .cannotRead(FileSystemError(operation: "read", path: sourceName, code: code)))
        }
    }
}
