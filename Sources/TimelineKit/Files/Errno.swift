#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What a failed system call said (`errno`), as a type rather than a bare `Int32`, after
/// swift-system's `Errno`: the values TimelineKit tells apart have names, and every value says
/// itself in the system's words.
public struct Errno: Error, Sendable, Hashable, RawRepresentable, CustomStringConvertible {
    public let rawValue: Int32

    public init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    /// The calling thread's `errno` now: read it right after the call that failed.
    static var current: Errno { Errno(rawValue: errno) }

    /// The system's words for it, e.g. "Permission denied".
    public var description: String { String(cString: strerror(rawValue)) }

    public static let interrupted = Errno(rawValue: EINTR)
    public static let noSuchFileOrDirectory = Errno(rawValue: ENOENT)
    public static let fileExists = Errno(rawValue: EEXIST)
    public static let isADirectory = Errno(rawValue: EISDIR)
    public static let tooManySymbolicLinks = Errno(rawValue: ELOOP)
    public static let permissionDenied = Errno(rawValue: EACCES)
    public static let notPermitted = Errno(rawValue: EPERM)
    public static let readOnlyFileSystem = Errno(rawValue: EROFS)
    public static let ioError = Errno(rawValue: EIO)
    public static let brokenPipe = Errno(rawValue: EPIPE)
    public static let wouldBlock = Errno(rawValue: EWOULDBLOCK)
    public static let notSupported = Errno(rawValue: EOPNOTSUPP)
    public static let notImplemented = Errno(rawValue: ENOSYS)
}
