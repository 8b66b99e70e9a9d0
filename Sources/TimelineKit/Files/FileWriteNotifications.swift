#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The system's notice that files were written (inotify's `IN_MODIFY`), and a way to wake a
/// thread waiting for it: the inotify and pipe calls, wrapped once.
///
/// The descriptor can join a caller's own `poll(2)` set (`show -f` waits on its signals and
/// standard output too), or a thread can block in ``wait(milliseconds:)`` until a write, the
/// timeout, or ``interrupt()`` from another thread. `nil` from the initialiser where there is no
/// inotify (macOS) or a path cannot be watched: callers then check on a timer, which is as
/// correct and only wakes more often.
package final class FileWriteNotifications: @unchecked Sendable {
    // Sendable by hand: the descriptors are set once and closed in `deinit`; the kernel makes
    // reads and writes on them from several threads safe.
    /// Readable when a watched file was written since the events were last discarded.
    package let descriptor: Int32
    /// A pipe whose write end ``interrupt()`` writes to, waking ``wait(milliseconds:)``.
    private let interruption: (read: Int32, write: Int32)

    /// Watches each of `paths` for writes; `nil` when any cannot be watched.
    package init?(watching paths: [String]) {
        #if os(Linux)
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        for path in paths where inotify_add_watch(fd, path, UInt32(IN_MODIFY)) < 0 {
            _ = close(fd)
            return nil
        }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            _ = close(fd)
            return nil
        }
        for end in ends {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        descriptor = fd
        interruption = (ends[0], ends[1])
        #else
        return nil
        #endif
    }

    deinit {
        _ = close(descriptor)
        _ = close(interruption.read)
        _ = close(interruption.write)
    }

    /// Reads and drops the pending events, so the descriptor is readable again only after the
    /// next write.
    package func discardEvents() {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while buffer.withUnsafeMutableBytes({ read(descriptor, $0.baseAddress, $0.count) }) > 0 {}
    }

    /// What ended a ``wait(milliseconds:)``.
    package enum Wake: Sendable, Equatable {
        /// A watched file was written (the events are discarded).
        case written
        /// The time ran out.
        case timedOut
        /// ``interrupt()`` was called (now or before the wait began); every later wait returns
        /// this at once too.
        case interrupted
    }

    /// Blocks the calling thread until a write, `milliseconds` pass, or an interruption.
    package func wait(milliseconds: Int32) -> Wake {
        var fds = [pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: interruption.read, events: Int16(POLLIN), revents: 0)]
        while true {
            let ready = poll(&fds, nfds_t(fds.count), milliseconds)
            if ready < 0 {
                if errno == EINTR { continue }
                // Not expected on valid descriptors; the caller checks on its timer instead.
                return .timedOut
            }
            if fds[1].revents != 0 { return .interrupted }
            if fds[0].revents & Int16(POLLIN) != 0 {
                discardEvents()
                return .written
            }
            return .timedOut
        }
    }

    /// Wakes a thread blocked in ``wait(milliseconds:)``, and every wait after it. Safe from any
    /// thread, including a task-cancellation handler.
    package func interrupt() {
        var byte: UInt8 = 1
        _ = write(interruption.write, &byte, 1)
    }
}
