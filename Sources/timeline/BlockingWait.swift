#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs asynchronous TimelineKit work (network requests) to its end from a synchronous
/// command. The command tree stays synchronous because an asynchronous root would turn
/// main.swift into an async entry point and start the concurrency runtime on `show`'s launch
/// path, which must stay as light as `cat`.
///
/// The work runs as a detached task on the cooperative pool while this thread waits; it never
/// runs on this thread, so the wait cannot deadlock it. (A pthread condition rather than
/// Dispatch's semaphore: importing Dispatch's Swift overlay adds conformance records that the
/// runtime scans on every launch.)
func waitFor<T: Sendable, Failure: Error>(_ operation: @escaping @Sendable () async throws(Failure) -> T) throws(Failure) -> T {
    let outcome = BlockingOutcome<T, Failure>()
    Task.detached {
        do throws(Failure) {
            outcome.finish(.success(try await operation()))
        } catch {
            outcome.finish(.failure(error))
        }
    }
    return try outcome.wait().get()
}

/// Where ``waitFor(_:)``'s task leaves its result, and the condition its caller waits on.
private final class BlockingOutcome<T: Sendable, Failure: Error>: @unchecked Sendable {
    // @unchecked Sendable: `result` is only read and written with `mutex` held.
    private var result: Result<T, Failure>?
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)

    init() {
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    func finish(_ value: Result<T, Failure>) {
        pthread_mutex_lock(mutex)
        result = value
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    func wait() -> Result<T, Failure> {
        pthread_mutex_lock(mutex)
        while result == nil { pthread_cond_wait(condition, mutex) }
        let value = result!
        pthread_mutex_unlock(mutex)
        return value
    }
}
