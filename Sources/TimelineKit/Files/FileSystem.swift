#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file-system calls TimelineKit makes, in one place, with Swift types at the boundary.
/// Only POSIX calls: full Foundation's `FileManager` would cost every launch its start-up time,
/// and the snapshot path needs control that `FileManager` does not give (`O_NOFOLLOW`, `fsync`,
/// `flock`, creation modes).
package enum FileSystem {
    /// What a path names, without following a final symbolic link.
    enum Kind: Sendable, Equatable, CustomStringConvertible {
        case missing, regularFile, directory, symbolicLink, fifo, socket, device

        var description: String {
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
        guard lstat(path, &info) == 0 else { throw FileSystemError(operation: "lstat", path: path, code: errno) }
        return info.st_mode & 0o7777
    }

    /// Outcome of reading a file that must be a regular file of bounded size.
    enum ReadFailure: Error, Sendable, Equatable {
        case system(FileSystemError)
        case notRegularFile(Kind)
        case tooLarge(size: Int, limit: Int)
    }

    /// Reads a whole regular file. Refuses, without blocking or following it, a final symbolic
    /// link, a directory, a FIFO or a device; refuses files larger than `limit` before reading.
    static func readRegularFile(at path: String, limit: Int) throws(ReadFailure) -> [UInt8] {
        // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer forever.
        // O_NOFOLLOW: a final symbolic link fails with ELOOP instead of being followed.
        let fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ELOOP { throw .notRegularFile(.symbolicLink) }
            throw .system(FileSystemError(operation: "open", path: path, code: code))
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(FileSystemError(operation: "fstat", path: path, code: errno)) }
        let kind = Kind(mode: info.st_mode)
        guard kind == .regularFile else { throw .notRegularFile(kind) }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        do {
            // A file that shrank while we read it comes back short; the caller's checks see that.
            return try readUpTo(size, from: fd, path: path)
        } catch {
            throw .system(error)
        }
    }

    /// A whole regular file (following symbolic links, as a configuration file may be one) with
    /// its permission bits and whether the calling user owns it, all from one open descriptor:
    /// what a file of secrets must be checked for before it is trusted.
    static func readPrivateFile(at path: String, limit: Int) throws(ReadFailure) -> (bytes: [UInt8], permissions: mode_t, ownedByCaller: Bool) {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { throw .system(FileSystemError(operation: "open", path: path, code: errno)) }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .system(FileSystemError(operation: "fstat", path: path, code: errno)) }
        let kind = Kind(mode: info.st_mode)
        guard kind == .regularFile else { throw .notRegularFile(kind) }
        let size = Int(info.st_size)
        guard size <= limit else { throw .tooLarge(size: size, limit: limit) }
        do {
            return (try readUpTo(size, from: fd, path: path), info.st_mode & 0o7777, info.st_uid == geteuid())
        } catch {
            throw .system(error)
        }
    }

    /// Up to `count` bytes read from `fd`, going on after short reads and interrupted calls, and
    /// fewer at the end of the file.
    private static func readUpTo(_ count: Int, from fd: Int32, path: String) throws(FileSystemError) -> [UInt8] {
        var failure: Int32?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                // In bounds: reads at most `count - initialized` bytes into the tail of a buffer
                // of capacity `count`.
                let got = read(fd, buffer.baseAddress! + initialized, count - initialized)
                if got > 0 {
                    initialized += got
                } else if got == 0 {
                    break
                } else if errno != EINTR {
                    failure = errno
                    break
                }
            }
        }
        if let failure { throw FileSystemError(operation: "read", path: path, code: failure) }
        return bytes
    }

    /// Why this process cannot write `path` (a file, or a directory to create files in), or
    /// `nil` when it can. Asks the kernel with the effective user (`faccessat` with
    /// `AT_EACCESS`), so it answers as the writes would: a read-only mount says so even to root.
    static func writeDenial(at path: String) -> FileSystemError? {
        faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 ? nil : FileSystemError(operation: "write", path: path, code: errno)
    }

    /// Replaces `path` with `bytes` atomically: the bytes go to `temporaryPath` (in the same
    /// directory), are flushed to disk, and the temporary file is renamed over `path`. A crash at
    /// any moment leaves either the old file or the new one at `path`, never a torn one.
    /// An existing `path` that is a symbolic link is replaced, not written through.
    static func replaceAtomically(
        _ path: String, with bytes: [UInt8], temporaryPath: String, permissions: mode_t
    ) throws(FileSystemError) {
        // A temporary file left by a writer that was killed is stale: the caller holds the lock
        // that every writer of `path` takes, so nobody else is writing it now.
        if unlink(temporaryPath) != 0, errno != ENOENT {
            throw FileSystemError(operation: "unlink", path: temporaryPath, code: errno)
        }
        let fd = open(temporaryPath, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: temporaryPath, code: errno) }
        var closed = false
        var renamed = false
        defer {
            if !closed { close(fd) }
            if !renamed { unlink(temporaryPath) }
        }
        // The creation mode is filtered by the umask; timelines are private whatever the umask.
        guard fchmod(fd, permissions) == 0 else { throw FileSystemError(operation: "chmod", path: temporaryPath, code: errno) }
        try writeAll(bytes, to: fd, path: temporaryPath)
        guard fsync(fd) == 0 else { throw FileSystemError(operation: "fsync", path: temporaryPath, code: errno) }
        closed = true
        guard close(fd) == 0 else { throw FileSystemError(operation: "close", path: temporaryPath, code: errno) }
        guard rename(temporaryPath, path) == 0 else { throw FileSystemError(operation: "rename", path: path, code: errno) }
        renamed = true
        // The directory is not flushed: a power loss may undo the rename, which leaves the
        // previous, complete file in place. For the snapshot (a cache that records the generation
        // it shows) that is a stale snapshot, which `show` reconciles; the flush cost a system
        // call that waits for the disk on every write.
    }

    private static func writeAll(_ bytes: [UInt8], to fd: Int32, path: String) throws(FileSystemError) {
        let failure = bytes.withUnsafeBytes { writeAll($0, to: fd) }
        if let failure { throw FileSystemError(operation: "write", path: path, code: failure) }
    }

    /// Writes all of `buffer` to `fd`, going on after short writes and interrupted calls.
    /// Returns the `errno` of a failure (EIO when the system wrote nothing and said nothing).
    package static func writeAll(_ buffer: UnsafeRawBufferPointer, to fd: Int32) -> Int32? {
        var offset = 0
        while offset < buffer.count {
            // In bounds: writes the `buffer.count - offset` bytes that remain after `offset`.
            let written = write(fd, buffer.baseAddress! + offset, buffer.count - offset)
            if written > 0 {
                offset += written
            } else if written < 0, errno == EINTR {
                continue
            } else {
                return written < 0 ? errno : EIO
            }
        }
        return nil
    }

    /// Creates `path` and any missing parents with `permissions` (existing directories are left
    /// as they are). Returns the directories it created, outermost first, so that a caller whose
    /// work then fails can remove them again (`removeDirectories`).
    @discardableResult
    static func createDirectories(_ path: String, permissions: mode_t) throws(FileSystemError) -> [String] {
        if path.isEmpty || kind(at: path) == .directory { return [] }
        let parent = parentDirectory(of: path)
        var created: [String] = []
        if parent != path { created = try createDirectories(parent, permissions: permissions) }
        if mkdir(path, permissions) == 0 {
            created.append(path)
        } else if errno != EEXIST {
            let failure = FileSystemError(operation: "mkdir", path: path, code: errno)
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
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, permissions)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: path, code: errno) }
        defer { close(fd) }
        guard fchmod(fd, permissions) == 0 else { throw FileSystemError(operation: "chmod", path: path, code: errno) }
    }

    /// Gives the complete file `temporaryPath` its real name `path`, unless something is already
    /// there (then it fails with EEXIST and leaves both as they are). A hard link makes the check
    /// and the naming one step; on a file system without hard links it checks, then renames.
    static func publish(_ temporaryPath: String, as path: String) throws(FileSystemError) {
        if link(temporaryPath, path) == 0 {
            unlink(temporaryPath)
            return
        }
        let code = errno
        guard code == EPERM || code == EOPNOTSUPP || code == ENOSYS, kind(at: path) == .missing else {
            throw FileSystemError(operation: "link", path: path, code: code)
        }
        guard rename(temporaryPath, path) == 0 else { throw FileSystemError(operation: "rename", path: path, code: errno) }
    }

    static func remove(_ path: String) throws(FileSystemError) {
        if unlink(path) != 0, errno != ENOENT { throw FileSystemError(operation: "unlink", path: path, code: errno) }
    }

    /// When `path` (following links) was last modified, in whole seconds since 1970, or `nil`
    /// when it does not exist.
    static func modificationTime(at path: String) -> Int64? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        #if canImport(Darwin)
        return Int64(info.st_mtimespec.tv_sec)
        #else
        return Int64(info.st_mtim.tv_sec)
        #endif
    }

    /// Creates `path` (private) if missing and sets its modification time to now.
    static func touch(_ path: String) throws(FileSystemError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard fd >= 0 else { throw FileSystemError(operation: "create", path: path, code: errno) }
        defer { close(fd) }
        guard futimens(fd, nil) == 0 else { throw FileSystemError(operation: "futimens", path: path, code: errno) }
    }

    /// The directory part of `path` ("." for a bare file name).
    static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        if slash == path.startIndex { return "/" }
        return String(path[..<slash])
    }
}
