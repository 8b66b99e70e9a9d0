/// What identified the database's files in the file system while the database was at a
/// generation: the proof, for `timeline show`, that a database did not change since, which costs
/// two `lstat`s instead of an SQLite connection (see docs/internals.md, "Nothing changed,
/// nothing opened").
///
/// It is a fact about the database, not about a snapshot: taken while holding SQLite's write lock
/// (no commit half done, none can start), it says "the database `databaseID` was at `generation`
/// when its file and its `-wal` looked like this". A snapshot of that database and generation is
/// then known fresh for as long as both files still look exactly so. Only a stamp whose file
/// times were settled (`isSettled`) is written: a later write then always changes a time.
///
/// It lives in a small file of its own beside the snapshot (`timeline.snapshot.stamp`), so that
/// `show` can stamp a snapshot it found fresh without rewriting it. Layout (integers
/// little-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 8 | magic `TLSTAMP\n` |
/// | 8 | 2 | format version (1) |
/// | 10 | 2 | n, the length of the database ID |
/// | 12 | 4 | the schema version of the library that wrote it |
/// | 16 | 8 | generation (signed) |
/// | 24 | 49 | the database file (below) |
/// | 73 | 49 | the `-wal` file (all zero when there was none) |
/// | 122 | n | database ID (UTF-8) |
/// | 122+n | 4 | CRC-32 of bytes 0 ..< 122+n |
///
/// A file: kind (0 none, 1 regular file, 2 anything else), device, inode, size, modification
/// time (seconds, then nanoseconds in 4 bytes), status-change time (the same).
struct SnapshotStamp: Sendable, Equatable {
    var databaseID: String
    var generation: Int64
    /// `TimelineStore.latestSchemaVersion` of the library that took it: another version may
    /// have a migration to run, which only an open does.
    var schemaVersion: Int
    var database: FileIdentity
    var writeAheadLog: FileIdentity?

    static let formatVersion = 1
    private static let magic: [UInt8] = Array("TLSTAMP\n".utf8)
    private static let fixedLength = 122
    private static let fileLength = 49
    /// More than any stamp this library writes (a database ID is 32 characters).
    static let maximumFileSize = fixedLength + SnapshotHeader.maximumDatabaseIDLength + 4

    init(databaseID: String, generation: Int64, schemaVersion: Int, database: FileIdentity, writeAheadLog: FileIdentity?) {
        self.databaseID = databaseID
        self.generation = generation
        self.schemaVersion = schemaVersion
        self.database = database
        self.writeAheadLog = writeAheadLog
    }

    /// Where the stamp of the snapshot at `snapshotPath` lives.
    static func path(forSnapshotAt snapshotPath: String) -> String {
        snapshotPath + ".stamp"
    }

    /// The file's bytes.
    func encoded() -> [UInt8] {
        let id = Array(databaseID.utf8.prefix(SnapshotHeader.maximumDatabaseIDLength))
        var bytes = Self.magic
        bytes.reserveCapacity(Self.fixedLength + id.count + 4)
        bytes.appendLittleEndian(UInt16(Self.formatVersion))
        bytes.appendLittleEndian(UInt16(id.count))
        bytes.appendLittleEndian(UInt32(clamping: schemaVersion))
        bytes.appendLittleEndian(UInt64(bitPattern: generation))
        Self.append(database, to: &bytes)
        Self.append(writeAheadLog, to: &bytes)
        bytes += id
        bytes.appendLittleEndian(CRC32.checksum(bytes))
        return bytes
    }

    /// The stamp `bytes` hold, or `nil` for anything else: another format version, a torn or
    /// damaged file (the checksum), another program's file. A stamp that cannot be read proves
    /// nothing, and `show` opens the database as it would without one.
    init?(decoding bytes: [UInt8]) {
        guard bytes.count >= Self.fixedLength + 4, bytes.starts(with: Self.magic),
              Int(bytes.readLittleEndianUInt16(at: 8)) == Self.formatVersion else { return nil }
        let idLength = Int(bytes.readLittleEndianUInt16(at: 10))
        guard bytes.count == Self.fixedLength + idLength + 4,
              CRC32.checksum(bytes.prefix(Self.fixedLength + idLength)) == bytes.readLittleEndianUInt32(at: Self.fixedLength + idLength),
              let database = Self.file(in: bytes, at: 24) else { return nil }
        schemaVersion = Int(bytes.readLittleEndianUInt32(at: 12))
        generation = Int64(bitPattern: bytes.readLittleEndianUInt64(at: 16))
        self.database = database
        writeAheadLog = Self.file(in: bytes, at: 24 + Self.fileLength)
        databaseID = String(decoding: bytes[Self.fixedLength ..< Self.fixedLength + idLength], as: UTF8.self)
    }

    /// The stamp at `path`, or `nil` when there is none or it does not decode.
    static func read(at path: String) -> SnapshotStamp? {
        guard let bytes = try? FileSystem.readRegularFile(at: path, limit: maximumFileSize) else { return nil }
        return SnapshotStamp(decoding: bytes)
    }

    /// Replaces the stamp at `path` atomically. Not flushed to disk: after a power loss the file
    /// may be gone, empty or torn (refused by its checksum), or the one before, which the files'
    /// times it recorded no longer match; each makes `show` open the database.
    func write(to path: String) throws(FileSystemError) {
        try FileSystem.replaceAtomically(path, with: encoded(), temporaryPath: path + ".tmp", permissions: 0o600, flushing: false)
    }

    /// Whether `times`, read together with `now` while no write could happen, are far enough
    /// behind `now` that any write after it gives the file another time. `now` is a reading of
    /// the clock file times come from (`FileSystem.fileTimeClockNow()`): a later write gets a time
    /// at or after it, truncated to the file system's unit, which is a nanosecond on the file
    /// systems `FileSystem.keepsLocalFileTimes` accepts, or a second where the times show it
    /// (every nanosecond field 0: ext4 with 128-byte inodes, an overlay on such a file system).
    /// One tick of the clock (`clockResolution`) is kept as a margin above the unit; a second
    /// file system gets two seconds.
    static func isSettled(_ times: [FileTime], now: FileTime, clockResolution: Int64) -> Bool {
        let wholeSeconds = times.allSatisfy { $0.nanoseconds == 0 }
        let margin = wholeSeconds ? 2_000_000_000 : max(clockResolution, 1_000_000)
        return times.allSatisfy { now.totalNanoseconds - $0.totalNanoseconds >= margin }
    }

    private static func append(_ file: FileIdentity?, to bytes: inout [UInt8]) {
        guard let file else {
            bytes += [UInt8](repeating: 0, count: fileLength)
            return
        }
        bytes.append(file.isRegularFile ? 1 : 2)
        bytes.appendLittleEndian(file.device)
        bytes.appendLittleEndian(file.inode)
        bytes.appendLittleEndian(file.size)
        bytes.appendLittleEndian(file.modified.seconds)
        bytes.appendLittleEndian(UInt32(bitPattern: file.modified.nanoseconds))
        bytes.appendLittleEndian(file.statusChanged.seconds)
        bytes.appendLittleEndian(UInt32(bitPattern: file.statusChanged.nanoseconds))
    }

    // In bounds: callers pass offsets whose 49 bytes lie inside the checked fixed part.
    private static func file(in bytes: [UInt8], at offset: Int) -> FileIdentity? {
        guard bytes[offset] != 0 else { return nil }
        return FileIdentity(
            isRegularFile: bytes[offset] == 1,
            device: bytes.readLittleEndianUInt64(at: offset + 1),
            inode: bytes.readLittleEndianUInt64(at: offset + 9),
            size: Int64(bitPattern: bytes.readLittleEndianUInt64(at: offset + 17)),
            modified: FileTime(seconds: Int64(bitPattern: bytes.readLittleEndianUInt64(at: offset + 25)),
                               nanoseconds: Int32(bitPattern: bytes.readLittleEndianUInt32(at: offset + 33))),
            statusChanged: FileTime(seconds: Int64(bitPattern: bytes.readLittleEndianUInt64(at: offset + 37)),
                                    nanoseconds: Int32(bitPattern: bytes.readLittleEndianUInt32(at: offset + 45))))
    }
}
