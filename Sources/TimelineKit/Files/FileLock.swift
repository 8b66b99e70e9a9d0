#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive advisory lock (`flock`) on a lock file, held until the value is dropped.
/// The kernel releases it when the process dies, so a writer killed mid-write never leaves the
/// lock behind.
struct FileLock: ~Copyable {
    private let file: FileDescriptor

    /// Runs `body` while holding the lock on `path`; returns `nil` without running it when the
    /// lock could not be taken within `timeout` (`nil` waits as long as it takes).
    static func withLock<T, E: Error>(
        _ path: String, timeout: Duration?, _ body: () throws(E) -> T
    ) throws(FileLockError<E>) -> T? {
        let lock: FileLock?
        do throws(FileSystemError) {
            lock = try acquire(path, timeout: timeout)
        } catch {
            throw .lock(error)
        }
        guard let lock else { return nil }
        do throws(E) {
            let value = try body()
            _ = consume lock
            return value
        } catch {
            _ = consume lock
            throw .body(error)
        }
    }

    /// Takes the lock on `path` (created 0600 if missing), waiting at most `timeout`, or forever
    /// when `timeout` is `nil`. Returns `nil` when the wait ran out.
    static func acquire(_ path: String, timeout: Duration?) throws(FileSystemError) -> FileLock? {
        let file = try FileSystemError.naming("open", path) { () throws(Errno) in
            try FileDescriptor.open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_CLOEXEC, permissions: 0o600)
        }
        guard let timeout else {
            do {
                _ = try retryingInterrupts { flock(file.rawValue, LOCK_EX) }
            } catch {
                file.close()
                throw FileSystemError(operation: "flock", path: path, code: error)
            }
            return FileLock(file: file)
        }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while flock(file.rawValue, LOCK_EX | LOCK_NB) != 0 {
            let code = Errno.current
            guard code == .wouldBlock || code == .interrupted else {
                file.close()
                throw FileSystemError(operation: "flock", path: path, code: code)
            }
            if clock.now >= deadline {
                file.close()
                return nil
            }
            usleep(1_000)
        }
        return FileLock(file: file)
    }

    private init(file: FileDescriptor) { self.file = file }

    deinit { file.close() }  // closing the descriptor releases the flock
}

/// A failure to take a file lock, or the failure of the work done under it.
enum FileLockError<Failure: Error>: Error {
    case lock(FileSystemError)
    case body(Failure)
}
