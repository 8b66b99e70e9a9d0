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
        "\(operation) \(path): \(String(cString: strerror(code)))"
    }

    /// Whether the path did not exist.
    public var isNotFound: Bool { code == ENOENT }
}
