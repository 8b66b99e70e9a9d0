#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A file handed to another program (the person's editor) and read back: alone in a new
/// directory only this user can enter (0700, in `$TMPDIR` or `/tmp`), itself readable by this
/// user only (0600), so neither what is written in it nor what is read back can be seen or
/// swapped by anyone else. ``remove()`` deletes both.
///
/// ```swift
/// let file = try PrivateTemporaryFile(prefix: "timeline-", name: "POST_EDITMSG", contents: Array(template.utf8))
/// defer { file.remove() }
/// // … the editor runs on file.path …
/// let written = try file.read(limit: 1 << 20)
/// ```
package struct PrivateTemporaryFile: Sendable {
    /// The file's path.
    package let path: String
    /// The private directory holding it.
    package let directory: String

    /// Creates the directory (`prefix` and six random characters) and the file `name` in it
    /// holding `contents`; nothing is left behind when that fails.
    package init(prefix: String, name: String, contents: [UInt8]) throws(FileSystemError) {
        directory = try FileSystem.createPrivateTemporaryDirectory(prefix: prefix)
        path = directory + "/" + name
        do {
            try FileSystem.writeNewFile(path, contents, permissions: 0o600)
        } catch {
            try? FileSystem.remove(path)
            FileSystem.removeDirectories([directory])
            throw error
        }
    }

    /// The file's bytes now, up to `limit` (more is refused, as is anything but a regular file:
    /// an editor that replaced it with a link is not followed).
    package func read(limit: Int) throws(FileSystemError) -> [UInt8] {
        do throws(FileSystem.ReadFailure) {
            return try FileSystem.readRegularFile(at: path, limit: limit)
        } catch {
            switch error {
            case let .system(failure): throw failure
            case .notRegularFile: throw FileSystemError(operation: "read", path: path, code: Errno(rawValue: EINVAL))
            case .tooLarge: throw FileSystemError(operation: "read", path: path, code: Errno(rawValue: EFBIG))
            }
        }
    }

    /// Deletes the file and its directory. A directory an editor left something else in (a
    /// backup `name~`) stays, private, rather than have its contents guessed at.
    package func remove() {
        try? FileSystem.remove(path)
        FileSystem.removeDirectories([directory])
    }
}
