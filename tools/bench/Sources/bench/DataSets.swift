import Foundation
import GRDB
import TimelineKit

/// Generated databases, cached under the data directory by (generator version, seed, size).
struct DataSets {
    let directory: String
    let seed: UInt64

    var generator: TimelineGenerator { TimelineGenerator(seed: seed) }

    func databasePath(messages: Int) -> String {
        "\(directory)/v\(TimelineGenerator.version)-s\(seed)-n\(messages)/timeline.sqlite"
    }

    /// The database with `messages` messages (and its fresh snapshot), generated on first use.
    func ensure(messages: Int) throws -> String {
        let path = databasePath(messages: messages)
        let folder = (path as NSString).deletingLastPathComponent
        let ready = folder + "/READY"
        let schema = try Self.currentSchema(scratch: directory + "/schema-probe")
        if let stamp = try? String(contentsOfFile: ready, encoding: .utf8), stamp == schema { return path }
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let start = now()
        log("generating \(messages) messages (seed \(seed)) in \(folder) …")
        do {
            let store = try TimelineStore(path: path, configuration: .init(writesSnapshot: false))
            let gen = generator
            let users = gen.users()
            var index = 0
            while index < messages {
                let batch = gen.messages(index..<min(messages, index + 1000))
                try store.write { transaction in
                    if index == 0 { try transaction.upsert(users: users) }
                    try transaction.upsert(messages: batch)
                }
                index += batch.count
            }
            _ = try store.writeSnapshot(force: true)
        }
        // The store is closed: SQLite checkpointed the WAL into the database.
        _ = FileManager.default.createFile(atPath: ready, contents: Data(schema.utf8))
        log(String(format: "generated in %.1f s", Double(now() - start) / 1e9))
        return path
    }

    /// The schema TimelineKit creates today (every CREATE statement), so a cached data set made
    /// by an older TimelineKit (say, with an index since dropped) is made again.
    static func currentSchema(scratch: String) throws -> String {
        try? FileManager.default.removeItem(atPath: scratch)
        try FileManager.default.createDirectory(atPath: scratch, withIntermediateDirectories: true)
        let path = scratch + "/empty.sqlite"
        // An empty write: TimelineKit creates a database at its first committed write.
        try TimelineStore(path: path, configuration: .init(writesSnapshot: false)).write { _ in }
        let queue = try DatabaseQueue(path: path, configuration: grdbConfiguration(readonly: true))
        let sql = try queue.read { db in
            try String.fetchAll(db, sql: "SELECT sql FROM sqlite_master WHERE sql IS NOT NULL ORDER BY type, name")
        }
        return "generator \(TimelineGenerator.version)\n" + sql.joined(separator: ";\n") + "\n"
    }

    /// A private copy of a data set (database and snapshot) that a benchmark may change.
    func workCopy(messages: Int, name: String) throws -> String {
        let source = try ensure(messages: messages)
        let folder = "\(directory)/work/\(name)"
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let target = folder + "/timeline.sqlite"
        for suffix in ["", "-wal"] where FileManager.default.fileExists(atPath: source + suffix) {
            try FileManager.default.copyItem(atPath: source + suffix, toPath: target + suffix)
        }
        try FileManager.default.copyItem(atPath: SnapshotFile.path(forDatabaseAt: source),
                                         toPath: SnapshotFile.path(forDatabaseAt: target))
        return target
    }

    /// A database holding the data set of `messages`, written by `importer`'s own `import` of what
    /// `exporter` exports from it: the same timeline for a binary too old to read the data set's
    /// schema (a baseline). Made once per data set and name, since a million messages take a while.
    func importedCopy(messages: Int, name: String, exporter: String, importer: String) throws -> String {
        let source = try ensure(messages: messages)
        let folder = "\(directory)/work/\(name)"
        let target = folder + "/timeline.sqlite"
        let done = folder + "/READY"
        if FileManager.default.fileExists(atPath: done) { return target }
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let lines = folder + "/timeline.jsonl"
        log("exporting \(messages) messages for the baseline's own import …")
        for command in [[exporter, "export", "--db", source, lines], [importer, "import", "--db", target, lines]] {
            let result = try Runner.capture(command)
            guard result.status == 0 else {
                throw BenchError("\(command.joined(separator: " ")) failed (status \(result.status)): \(result.errors.prefix(300))")
            }
        }
        try? FileManager.default.removeItem(atPath: lines)
        _ = FileManager.default.createFile(atPath: done, contents: Data())
        return target
    }

    /// Every file of a database that `show` reads: the database, its WAL and shared memory, the snapshot.
    static func files(of database: String) -> [String] {
        let snapshot = SnapshotFile.path(forDatabaseAt: database)
        return [database, database + "-wal", database + "-shm", snapshot, snapshot + ".lock"]
    }
}

func log(_ text: String) {
    FileHandle.standardError.write(Data("bench: \(text)\n".utf8))
}

extension DataSets {
    /// The data set as `timeline export` writes it (the JSON Lines import format), made once with
    /// the release binary and kept beside the database (remade with it).
    func jsonLinesFile(messages: Int, timeline: String) throws -> String {
        let database = try ensure(messages: messages)
        let path = (database as NSString).deletingLastPathComponent + "/export.jsonl"
        if FileManager.default.fileExists(atPath: path) { return path }
        log("exporting the \(messages)-message data set as JSON Lines …")
        let result = Runner.plain([timeline, "export", "--db", database, path + ".tmp"])
        guard result.status == 0 else { throw BenchError("timeline export of \(database) exited with \(result.status)") }
        try FileManager.default.moveItem(atPath: path + ".tmp", toPath: path)
        return path
    }

    /// The data set's first `messages` messages as a Mastodon home timeline (`MastodonWriter`),
    /// written once and kept: it depends only on the generator.
    func mastodonFile(messages: Int) throws -> String {
        let path = "\(directory)/v\(TimelineGenerator.version)-s\(seed)-mastodon-n\(messages).json"
        if FileManager.default.fileExists(atPath: path) { return path }
        log("writing \(messages) statuses as a Mastodon timeline …")
        try MastodonWriter(generator: generator).write(count: messages, to: path)
        return path
    }
}

/// The size of a file in bytes (0 when it cannot be read).
func fileSize(_ path: String) -> Int {
    (try? FileManager.default.attributesOfItem(atPath: path)[.size] as? Int) ?? 0
}
