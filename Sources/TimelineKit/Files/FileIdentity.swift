/// What the file system says of a file that changes whenever its bytes do: which file it is
/// (device and inode), its size, and its modification and status-change times to the nanosecond.
/// Two equal identities taken at different moments, of a file whose times were settled when the
/// first was taken (see `FileTime.isSettled`), mean nobody wrote to it in between.
///
/// The status-change time (`ctime`) is the one a program cannot set: `touch -d`, `cp -p` and
/// `rsync -t` put an old modification time back, and the kernel sets `ctime` to now as they do.
/// It also moves when a file is renamed onto the path, so a reused inode number is told apart.
package struct FileIdentity: Sendable, Hashable {
    /// Whether it is a regular file (not a symbolic link, directory or other kind).
    package var isRegularFile: Bool
    package var device: UInt64
    package var inode: UInt64
    package var size: Int64
    package var modified: FileTime
    package var statusChanged: FileTime

    package init(isRegularFile: Bool = true, device: UInt64, inode: UInt64, size: Int64, modified: FileTime, statusChanged: FileTime) {
        self.isRegularFile = isRegularFile
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.statusChanged = statusChanged
    }
}

/// A file time, or a reading of the clock file times come from: seconds and nanoseconds since 1970.
package struct FileTime: Sendable, Hashable, Comparable {
    package var seconds: Int64
    package var nanoseconds: Int32

    package init(seconds: Int64, nanoseconds: Int32) {
        self.seconds = seconds
        self.nanoseconds = nanoseconds
    }

    /// Nanoseconds since 1970 (fits an `Int64` until the year 2262).
    package var totalNanoseconds: Int64 { seconds &* 1_000_000_000 &+ Int64(nanoseconds) }

    package static func < (lhs: FileTime, rhs: FileTime) -> Bool {
        (lhs.seconds, lhs.nanoseconds) < (rhs.seconds, rhs.nanoseconds)
    }
}
