import Synchronization

/// A connection (opened on first use) and the lock that confines it to one thread at a time.
///
/// `@unchecked Sendable` is safe here because:
/// - `connection` is read and written only inside `withConnection`, while `lock` is held, so two
///   threads never touch it (or its statements) at once — the rule of SQLite's multi-thread mode;
/// - what `body` receives does not outlive the call: the store wraps it only in `TimelineReader`
///   and `TimelineTransaction`, which are not `Sendable` (no other thread or task can be handed
///   one) and the transaction refuses use after its closure returns.
/// `Mutex<SQLiteConnection>` alone cannot express this: the compiler cannot see that the
/// connection does not escape into a caller's closure, so it rejects every use that passes it on.
final class GuardedConnection: @unchecked Sendable {
    private let lock = Mutex(())
    private var connection: SQLiteConnection?
    private let open: @Sendable () throws(TimelineStoreError) -> SQLiteConnection

    init(_ connection: SQLiteConnection?, open: @escaping @Sendable () throws(TimelineStoreError) -> SQLiteConnection) {
        self.connection = connection
        self.open = open
    }

    func withConnection<T, E: Error>(_ body: (SQLiteConnection) throws(E) -> T) throws(GuardedConnectionError<E>) -> T {
        try lock.withLock { _ throws(GuardedConnectionError<E>) -> T in
            let current: SQLiteConnection
            if let connection {
                current = connection
            } else {
                do throws(TimelineStoreError) {
                    current = try open()
                } catch {
                    throw .open(error)
                }
                connection = current
            }
            do throws(E) {
                return try body(current)
            } catch {
                throw .body(error)
            }
        }
    }

    /// Closes the connection (once no one is using it); the next use opens a new one.
    func reset() {
        lock.withLock { _ in connection = nil }
    }
}

/// Opening the guarded connection failed, or the work done with it did.
enum GuardedConnectionError<Failure: Error>: Error {
    case open(TimelineStoreError)
    case body(Failure)
}
