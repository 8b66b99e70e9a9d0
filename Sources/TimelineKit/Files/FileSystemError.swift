#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed file-system call: what was attempted, on which path, and the system's reason.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, e.g. "open", "rename", "fsync".
    public let operation: String
    /// The path it was done to.
    public let path: String
    /// The `errno` value the system reported.
    public let code: Int32

    public init(operation: String, path: String, code: Int32) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    public var description: String {
        "\(operation) \(path): \(reason)"
    }

    /// The system's words for `code`, e.g. "Permission denied".
    public var reason: String { String(cString: strerror(code)) }

    /// Whether the system refused for lack of rights or a read-only file system.
    public var isPermissionDenied: Bool { code == EACCES || code == EPERM || code == EROFS }

    /// Whether the path did not exist.
    public var isNotFound: Bool { code == ENOENT }
}
