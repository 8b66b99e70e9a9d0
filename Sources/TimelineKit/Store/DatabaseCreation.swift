#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A database that does not exist yet, and how the first write creates it.
///
/// A store opened where there is no database creates nothing until a write commits: then the
/// directories, the file, the schema and that write's changes appear together, or not at all. So
/// a command that fails (a missing import file, an unknown author, a bad line) leaves no empty
/// database behind, which would turn `timeline show`'s "no timeline yet" into an empty screen.
/// Until then the store reads as an empty timeline (`TimelineStore.init`).
///
/// What is at the path is looked at again when the first write comes:
/// - Nothing: the database is built under a temporary name beside it (`NAME.creating-RANDOM`,
///   with SQLite's rollback journal, so a failure rolls back inside that file) and given its
///   name only once the transaction has committed, by a hard link that fails if another process
///   created the database meanwhile. Directories it made are removed again on failure.
/// - An empty file (or an SQLite file holding nothing), which someone created on purpose: it is
///   filled in place, the schema and the first write in one transaction, so a failure rolls the
///   schema back. (SQLite writes the auto-vacuum mode into an empty file before a transaction
///   can start, so after a failure the file is an SQLite database holding nothing, which every
///   command still takes for no timeline, as it took the empty file.)
/// - A timeline database another process created since: the write goes there as usual.
///
/// WAL mode is switched on after that first commit, when the store opens its writer.
final class DatabaseCreation: Sendable {
    /// What `createIfPending` did.
    enum Outcome<T> {
        /// It created the database, with the write in it.
        case created(T)
        /// The database exists now (created by this store before, or by another process):
        /// the write is to be made as any other.
        case exists
    }

    let path: String
    private let pending = Mutex(true)

    init(path: String) {
        self.path = path
    }

    /// Whether the database is still to be created.
    var isPending: Bool { pending.withLock { $0 } }

    /// Creates the database with `body`'s changes in it, unless it exists by now. Concurrent
    /// callers in this process wait for each other.
    ///
    /// - Throws: what `body` throws, `.notATimelineDatabase` when another program's file
    ///   appeared at the path meanwhile, `.readOnly` when the directory cannot be written,
    ///   `.cannotOpen`.
    func createIfPending<T: Sendable>(
        configuration: TimelineStore.Configuration, _ body: (TimelineTransaction) throws -> T
    ) throws -> Outcome<T> {
        try pending.withLock { isPending throws -> Outcome<T> in
            guard isPending else { return .exists }
            let value: T
            switch try DatabaseIdentity.identify(path, busyTimeoutMilliseconds: configuration.busyTimeoutMilliseconds) {
            case .missing:
                value = try createFile(configuration: configuration, body)
            case .empty:
                value = try Self.firstTransaction(at: path, configuration: configuration, body)
            case .timeline:
                isPending = false
                return .exists
            case let .foreign(reason):
                throw TimelineStoreError.notATimelineDatabase(path: path, reason: reason)
            }
            isPending = false
            return .created(value)
        }
    }

    private func createFile<T>(configuration: TimelineStore.Configuration, _ body: (TimelineTransaction) throws -> T) throws -> T {
        let created: [String]
        do {
            created = try FileSystem.createDirectories(FileSystem.parentDirectory(of: path), permissions: 0o700)
        } catch {
            throw TimelineStoreError.notCreated(path: path, failure: error)
        }
        let temporary = path + ".creating-" + String(UInt64.random(in: 0 ... .max), radix: 36)
        var published = false
        defer {
            if !published {
                try? FileSystem.remove(temporary)
                try? FileSystem.remove(temporary + "-journal")
                FileSystem.removeDirectories(created)
            }
        }
        do {
            // Created here rather than by SQLite so that it is private whatever the umask;
            // SQLite gives its -wal and -shm files the database file's permissions.
            try FileSystem.createNewFile(temporary, permissions: 0o600)
        } catch {
            throw TimelineStoreError.notCreated(path: path, failure: error)
        }
        let value = try Self.firstTransaction(at: temporary, configuration: configuration, body)
        do {
            try FileSystem.publish(temporary, as: path)
        } catch {
            if error.code == .fileExists {
                throw TimelineStoreError.cannotOpen(
                    path: path, reason: "another process created it at the same moment, so nothing was written; run the command again")
            }
            throw TimelineStoreError.notCreated(path: path, failure: error)
        }
        published = true
        return value
    }

    /// The schema and `body` in one transaction on a connection of its own, closed on return.
    private static func firstTransaction<T>(
        at path: String, configuration: TimelineStore.Configuration, _ body: (TimelineTransaction) throws -> T
    ) throws -> T {
        let connection = try TimelineStore.openWriter(path: path, configuration: configuration, enablingWAL: false)
        return try TimelineStore.inWriteTransaction(connection, migrating: true, body)
    }
}
