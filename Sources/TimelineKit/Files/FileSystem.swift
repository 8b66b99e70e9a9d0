#if canImport(Glibc)
import TimelineFileSystem
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system calls TimelineKit makes on paths, in one place, with Swift types at the
/// boundary; the calls on an open file are `FileDescriptor`'s. (Outside `Files/`, only process
/// and terminal code calls C: `ChildProcess`'s non-blocking pipes under `poll`, and in the tool
/// the signal handlers' self-pipe, which must stay async-signal-safe.)
/// Only POSIX calls: full Foundation's `FileManager` would cost every launch its start-up time,
/// and the snapshot path needs control that `FileManager` does not give (`O_NOFOLLOW`, `fsync`,
/// `flock`, creation modes).
package enum FileSystem {
    /// What a path names, without following a final symbolic link.
    package enum Kind: Sendable, Equatable, CustomStringConvertible {
        case missing, regularFile, directory, symbolicLink, fifo, socket, device

        package var description: String {
            switch self {
            case .missing: "missing"
            case .regularFile: "a regular file"
            case .directory: "a directory"
            case .symbolicLink: "a symbolic link"
            case .fifo: "a FIFO (named pipe)"
            case .socket: "a socket"
            case .device: "a device"
            }
        }

        init(mode: mode_t) {
            switch mode & S_IFMT {
            case S_IFREG: self = .regularFile
            case S_IFDIR: self = .directory
            case S_IFLNK: self = .symbolicLink
            case S_IFIFO: self = .fifo
            case S_IFSOCK: self = .socket
            default: self = .device
            }
        }
    }

    static func kind(at path: String) -> Kind {
        var info = stat()
        guard lstat(path, &info) == 0 else { return .missing }
        return Kind(mode: info.st_mode)
    }

    /// The size in bytes of what `path` names (following links), or `nil` when it does not exist.
    static func size(at path: String) -> Int? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return Int(info.st_size)
    }

    /// The permission bits of `path`, without following a final link.
    static func permissions(at path: String) throws(FileSystemError) -> mode_t {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw FileSystemError.current("lstat", path: path) }
        return info.st_mode & 0o7777
    }

    /// Outcome of reading a file that must be a regular file of bounded size.
    package enum ReadFailure: Error, Sendable, Equatable {
        case system(FileSystemError)
        case notRegularFile(Kind)
        case tooLarge(size: Int, limit: Int)
    }

    /// Reads a whole regular file. Refuses, without blocking or following it, a final symbolic
    /// link, a directory, a FIFO or a device; refuses files larger than `limit` before reading.
    package static func readRegularFile(at path: String, limit: Int) throws(ReadFailure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
        // O_NOFOLLOW: a final symbolic link fails with ELOOP instead of being followed.
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        } catch {
            if error == .tooManySymbolicLinks { throw .notRegularFile(.symbolicLink) }
            throw .system(FileSystemError(operation: "open", path: path, code: error))
        }
        defer { file.close() }
        return try readWhole(file, path: path, limit: limit).bytes
    }

    /// A whole regular file (following symbolic links, as a configuration file may be one) with
    /// its permission bits and whether the calling user owns it, all from one open descriptor:
    /// what a file of secrets must be checked for before it is trusted.
    static func readPrivateFile(at path: String, limit: Int) throws(ReadFailure) -> (bytes: [UInt8], permissions: mode_t, ownedByCaller: Bool) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        } catch {
            throw .system(FileSystemError(operation: "open", path: path, code: error))
        }
        defer { file.close() }
        let (bytes, status) = try readWhole(file, path: path, limit: limit)
        return (bytes, status.permissions, status.ownerID == geteuid())
    }

    /// The bytes of the regular file open as `file`, refused beyond `limit` before reading.
    private static func readWhole(_ file: FileDescriptor, path: String, limit: Int) throws(ReadFailure) -> (bytes: [UInt8], status: FileStatus) {
        let status: FileStatus
        do {
            status = try file.status()
        } catch {
            throw .system(FileSystemError(operation: "fstat", path: path, code: error))
        }
        guard status.kind == .regularFile else { throw .notRegularFile(status.kind) }
        guard status.size <= limit else { throw .tooLarge(size: status.size, limit: limit) }
        do {
            // A file that shrank while we read it comes back short; the caller's checks see that.
            return (try file.read(upTo: status.size), status)
        } catch {
            throw .system(FileSystemError(operation: "read", path: path, code: error))
        }
    }

    /// Why this process cannot write `path` (a file, or a directory to create files in), or
    /// `nil` when it can. Asks the kernel with the effective user (`faccessat` with
    /// `AT_EACCESS`), so it answers as the writes would: a read-only mount says so even to root.
    static func writeDenial(at path: String) -> FileSystemError? {
        faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 ? nil : FileSystemError.current("write", path: path)
    }

    /// Replaces `path` with `bytes` atomically: the bytes go to `temporaryPath` (in the same
    /// directory), are flushed to disk, and the temporary file is renamed over `path`. A crash at
    /// any moment leaves either the old file or the new one at `path`, never a torn one.
    /// An existing `path` that is a symbolic link is replaced, not written through.
    /// `flushing: false` leaves the flush out, for a file whose loss or tearing in a power cut its
    /// reader detects and survives (after such a cut it may be empty or hold part of its bytes).
    package static func replaceAtomically(
        _ path: String, with bytes: [UInt8], temporaryPath: String, permissions: mode_t, flushing: Bool = true
    ) throws(FileSystemError) {
        // A temporary file left by a writer that was killed is stale: the caller holds the lock
        // that every writer of `path` takes, so nobody else is writing it now.
        try remove(temporaryPath)
        let file = try FileSystemError.naming("create", temporaryPath) { () throws(Errno) in
            try FileDescriptor.open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions: permissions)
        }
        var renamed = false
        defer { if !renamed { unlink(temporaryPath) } }
        do {
            defer { file.close() }
            // The creation mode is filtered by the umask; timelines are private whatever the umask.
            try FileSystemError.naming("chmod", temporaryPath) { () throws(Errno) in try file.setPermissions(permissions) }
            try FileSystemError.naming("write", temporaryPath) { () throws(Errno) in
                try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try file.writeAll(buffer) } }.get()
            }
            if flushing {
                try FileSystemError.naming("fsync", temporaryPath) { () throws(Errno) in try file.synchronize() }
            }
        }
        guard rename(temporaryPath, path) == 0 else { throw .current("rename", path: path) }
        renamed = true
        // The directory is not flushed: a power loss may undo the rename, which leaves the
        // previous, complete file in place. For the snapshot (a cache that records the generation
        // it shows) that is a stale snapshot, which `show` reconciles; the flush cost a system
        // call that waits for the disk on every write.
    }

    /// Creates `path` and any missing parents with `permissions` (existing directories are left
    /// as they are). Returns the directories it created, outermost first, so that a caller whose
    /// work then fails can remove them again (`removeDirectories`).
    @discardableResult
    package static func createDirectories(_ path: String, permissions: mode_t) throws(FileSystemError) -> [String] {
        if path.isEmpty || kind(at: path) == .directory { return [] }
        let parent = parentDirectory(of: path)
        var created: [String] = []
        if parent != path { created = try createDirectories(parent, permissions: permissions) }
        if mkdir(path, permissions) == 0 {
            created.append(path)
        } else if Errno.current != .fileExists {
            let failure = FileSystemError.current("mkdir", path: path)
            removeDirectories(created)
            throw failure
        }
        return created
    }

    /// Removes directories that `createDirectories` created, innermost first. One that is not
    /// empty any more (another process put something there meanwhile) stays.
    static func removeDirectories(_ created: [String]) {
        for directory in created.reversed() { rmdir(directory) }
    }

    /// Creates an empty file at `path` with exactly `permissions`, whatever the umask; fails
    /// (EEXIST) when something is there already.
    static func createNewFile(_ path: String, permissions: mode_t) throws(FileSystemError) {
        let file = try FileSystemError.naming("create", path) { () throws(Errno) in
            try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions: permissions)
        }
        defer { file.close() }
        try FileSystemError.naming("chmod", path) { () throws(Errno) in try file.setPermissions(permissions) }
    }

    /// Creates a new directory only this user can enter (mode 0700, `mkdtemp`) in `$TMPDIR`
    /// (else `/tmp`), named `prefix` and six random characters; answers its path. For a file
    /// another program is given to edit: nobody else can read it or put a link in its place.
    static func createPrivateTemporaryDirectory(prefix: String) throws(FileSystemError) -> String {
        var base = getenv("TMPDIR").map { String(cString: $0) } ?? ""
        if base.isEmpty || kind(at: base) != .directory { base = "/tmp" }
        while base.count > 1, base.hasSuffix("/") { base.removeLast() }
        var template = Array((base + "/" + prefix + "XXXXXX").utf8CString)
        // In bounds: `utf8CString` is never empty (it ends with the NUL), so the base exists.
        let made = template.withUnsafeMutableBufferPointer { buffer in mkdtemp(buffer.baseAddress!) }
        guard made != nil else { throw .current("mkdtemp", path: base) }
        // mkdtemp wrote the random characters in place; the path ends at the NUL.
        return String(decoding: template.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// Writes `bytes` to a new file at `path` with exactly `permissions` (whatever the umask);
    /// fails (EEXIST) when something is there already, a symbolic link included.
    static func writeNewFile(_ path: String, _ bytes: [UInt8], permissions: mode_t) throws(FileSystemError) {
        let file = try FileSystemError.naming("create", path) { () throws(Errno) in
            try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions: permissions)
        }
        defer { file.close() }
        try FileSystemError.naming("chmod", path) { () throws(Errno) in try file.setPermissions(permissions) }
        try FileSystemError.naming("write", path) { () throws(Errno) in
            try bytes.withUnsafeBytes { buffer in Result { () throws(Errno) in try file.writeAll(buffer) } }.get()
        }
    }

    /// Gives the complete file `temporaryPath` its real name `path`, unless something is already
    /// there (then it fails with EEXIST and leaves both as they are). A hard link makes the check
    /// and the naming one step; on a file system without hard links it checks, then renames.
    static func publish(_ temporaryPath: String, as path: String) throws(FileSystemError) {
        if link(temporaryPath, path) == 0 {
            unlink(temporaryPath)
            return
        }
        let code = Errno.current
        guard [.notPermitted, .notSupported, .notImplemented].contains(code), kind(at: path) == .missing else {
            throw FileSystemError(operation: "link", path: path, code: code)
        }
        guard rename(temporaryPath, path) == 0 else { throw FileSystemError.current("rename", path: path) }
    }

    static func remove(_ path: String) throws(FileSystemError) {
        if unlink(path) != 0, Errno.current != .noSuchFileOrDirectory { throw .current("unlink", path: path) }
    }

    /// The names in the directory `path` (not `.` and `..`), in no order; none when it cannot
    /// be read.
    package static func directoryEntries(at path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            // In bounds: `d_name` is a NUL-terminated array inside the entry; the prefix stops at the NUL.
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Removes the file `path`; `false` when it could not (already gone, no permission).
    @discardableResult
    package static func removeFile(_ path: String) -> Bool {
        unlink(path) == 0
    }

    /// When `path` (following links) was last modified, in whole seconds since 1970, or `nil`
    /// when it does not exist.
    package static func modificationTime(at path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Int64(info.st_mtimespec.tv_sec)
        #else
        return Int64(info.st_mtim.tv_sec)
        #endif
    }

    /// What identifies the file at `path` now (`lstat`: a symbolic link is named, not followed),
    /// or `nil` when nothing is there or it cannot be examined.
    package static func identity(at path: String) -> FileIdentity? {
        var info = stat()
        guard lstat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        let modified = info.st_mtimespec, changed = info.st_ctimespec
        #else
        let modified = info.st_mtim, changed = info.st_ctim
        #endif
        return FileIdentity(
            isRegularFile: Kind(mode: info.st_mode) == .regularFile, device: UInt64(truncatingIfNeeded: info.st_dev),
            inode: UInt64(truncatingIfNeeded: info.st_ino), size: Int64(info.st_size),
            modified: FileTime(seconds: Int64(modified.tv_sec), nanoseconds: Int32(truncatingIfNeeded: modified.tv_nsec)),
            statusChanged: FileTime(seconds: Int64(changed.tv_sec), nanoseconds: Int32(truncatingIfNeeded: changed.tv_nsec)))
    }

    /// The clock the kernel takes file times from, read now. On Linux that is the coarse real-time
    /// clock (`current_time()` reads `ktime_get_coarse_real_ts64`; kernels with multigrain
    /// timestamps hand out a finer time, never an earlier one): a file written after this reading
    /// gets a time no earlier than it. The fine clock would not do: it runs up to a tick ahead of
    /// the coarse one, so a write after a fine reading could still get an earlier time.
    package static func fileTimeClockNow() -> FileTime {
        var now = timespec()
        #if os(Linux)
        clock_gettime(CLOCK_REALTIME_COARSE, &now)
        #else
        clock_gettime(CLOCK_REALTIME, &now)
        #endif
        return FileTime(seconds: Int64(now.tv_sec), nanoseconds: Int32(truncatingIfNeeded: now.tv_nsec))
    }

    /// How far apart two readings of `fileTimeClockNow()` can be and still read the same (one
    /// tick of the coarse clock on Linux: 1 to 10 ms with the kernel's HZ).
    package static func fileTimeClockResolution() -> Int64 {
        var resolution = timespec()
        #if os(Linux)
        clock_getres(CLOCK_REALTIME_COARSE, &resolution)
        #else
        clock_getres(CLOCK_REALTIME, &resolution)
        #endif
        return Int64(resolution.tv_sec) * 1_000_000_000 + Int64(resolution.tv_nsec)
    }

    /// Sleeps one tick of the file-time clock (`fileTimeClockResolution()`, at least 1 ms): long
    /// enough for times written just before to fall behind it.
    package static func waitOneFileTimeTick() {
        let nanoseconds = max(fileTimeClockResolution(), 1_000_000)
        var time = timespec(tv_sec: Int(nanoseconds / 1_000_000_000), tv_nsec: Int(nanoseconds % 1_000_000_000))
        var left = timespec()
        while nanosleep(&time, &left) == -1, errno == EINTR { time = left }
    }

    /// Whether the file system holding `path` is one whose file times are set by this machine's
    /// kernel, from the clock `fileTimeClockNow()` reads, in nanoseconds (or in whole seconds,
    /// which the times themselves then show): the local file systems Linux ships for home
    /// directories and temporary files. Anything else (NFS, SMB, FUSE, 9p, FAT and the rest,
    /// whose times come from another machine's clock or in units of 2 s or 10 ms) answers `false`.
    package static func keepsLocalFileTimes(at path: String) -> Bool {
        #if os(Linux)
        var info = statfs()
        guard statfs(path, &info) == 0 else { return false }
        switch UInt64(truncatingIfNeeded: info.f_type) {
        case 0xEF53,        // ext2, ext3, ext4
             0x5846_5342,   // XFS
             0x9123_683E,   // Btrfs
             0x0102_1994,   // tmpfs
             0xF2F5_2010,   // F2FS
             0x2FC1_2FC1,   // ZFS
             0xCA45_1A4E,   // bcachefs
             0x794C_7630:   // overlayfs (its upper layer's times: container file systems)
            return true
        default:
            return false
        }
        #elseif canImport(Darwin)
        var info = statfs()
        guard statfs(path, &info) == 0 else { return false }
        let name = withUnsafeBytes(of: info.f_fstypename) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        return name == "apfs"
        #else
        return false
        #endif
    }

    /// Creates `path` (private) if missing and sets its modification time to now.
    static func touch(_ path: String) throws(FileSystemError) {
        let file = try FileSystemError.naming("create", path) { () throws(Errno) in
            try FileDescriptor.open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, permissions: 0o600)
        }
        defer { file.close() }
        guard futimens(file.rawValue, nil) == 0 else { throw .current("futimens", path: path) }
    }

    /// `path` made absolute, its symbolic links, `.` and `..` resolved (`realpath`); `nil` when
    /// it does not exist. `/proc/self/exe` gives the running program's own file on Linux.
    package static func resolvedPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The directory part of `path` ("." for a bare file name).
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}
