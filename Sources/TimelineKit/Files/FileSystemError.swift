/// A failed file-system call: what was attempted, on which path, and the system's reason.
public struct FileSystemError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done, e.g. "open", "rename", "fsync".
    public let operation: String
    /// The path it was done to.
    public let path: String
    /// What the system said.
    public let code: Errno

    public init(operation: String, path: String, code: Errno) {
        self.operation = operation
        self.path = path
        self.code = code
    }

    /// The failure of `operation` that the system reported just now (`errno`).
    static func current(_ operation: String, path: String) -> FileSystemError {
        FileSystemError(operation: operation, path: path, code: .current)
    }

    /// Runs `body`, a system call on `path`, and names its failure `operation` on `path`.
    static func naming<T>(_ operation: String, _ path: String, _ body: () throws(Errno) -> T) throws(FileSystemError) -> T {
        do {
            return try body()
        } catch {
            throw FileSystemError(operation: operation, path: path, code: error)
        }
    }

    public var description: String {
        "\(operation) \(path): \(reason)"
    }

    /// The system's words for `code`, e.g. "Permission denied".
    public var reason: String { code.description }

    /// Whether the system refused for lack of rights or a read-only file system.
    public var isPermissionDenied: Bool { [.permissionDenied, .notPermitted, .readOnlyFileSystem].contains(code) }

    /// Whether the path did not exist.
    public var isNotFound: Bool { code == .noSuchFileOrDirectory }
}
