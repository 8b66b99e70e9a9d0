/// The fields of SQLite's 100-byte database header that say whose a file is, read from the file's
/// first bytes without SQLite: no connection, no lock, no `-wal` or `-shm` file, nothing written.
/// So a file can be recognised as another program's before anything could change it.
///
/// The layout (https://www.sqlite.org/fileformat2.html#the_database_header; integers big-endian):
///
/// | offset | size | field |
/// |---|---|---|
/// | 0 | 16 | `SQLite format 3\0` |
/// | 18 | 1 | file format write version: 1 rollback journal, 2 WAL |
/// | 19 | 1 | file format read version: 1 rollback journal, 2 WAL |
/// | 60 | 4 | user version (`PRAGMA user_version`: our schema version) |
/// | 68 | 4 | application ID (`PRAGMA application_id`) |
///
/// In WAL mode the newest copy of page 1 may still be in the `-wal` file: then these are the
/// values of the last checkpoint, and only SQLite knows the current ones.
struct DatabaseHeader: Equatable {
    static let size = 100
    private static let magic = Array("SQLite format 3\0".utf8)

    /// Whether the file is in WAL mode (bytes 18 and 19 are 2).
    let usesWAL: Bool
    let userVersion: Int32
    let applicationID: Int32

    /// The header at the start of `bytes`, or `nil` when they are not the start of an SQLite
    /// database (too short, or another magic string).
    init?(_ bytes: [UInt8]) {
        // Index by index: a slice comparison would look up generic metadata on `show`'s path.
        guard bytes.count >= Self.size, Self.magic.indices.allSatisfy({ bytes[$0] == Self.magic[$0] }) else { return nil }
        usesWAL = bytes[18] == 2 && bytes[19] == 2
        userVersion = Self.int32(bytes, at: 60)
        applicationID = Self.int32(bytes, at: 68)
    }

    // In bounds: callers pass offsets of at most 96 into at least `size` (100) bytes.
    private static func int32(_ bytes: [UInt8], at offset: Int) -> Int32 {
        Int32(bitPattern: UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16
            | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3]))
    }
}
