#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The signals `show --follow` handles, turned into bytes on a pipe (the self-pipe trick) so the
/// follow loop sees them in the same `poll(2)` as its timer, and does every bit of real work —
/// restoring the terminal, refreshing the snapshot — outside the handler. Works alike on Linux
/// and macOS (which has no signalfd). Installed only by `--follow`: plain `show` keeps the
/// default dispositions and pays nothing.
enum FollowSignals {
    /// The signals that end the loop, then end the process by the same signal.
    static let ending: [Int32] = [SIGINT, SIGTERM, SIGHUP]
    /// The window changed size: the block is laid out again.
    static let resize = SIGWINCH
    /// Ctrl-Z: the terminal is given back before the process stops.
    static let suspend = SIGTSTP

    /// The pipe's write end, for the handler. Set once, before any handler is installed, and
    /// only read after: the handler touches nothing else (and keeps `errno` as it found it).
    nonisolated(unsafe) private static var writeEnd: Int32 = -1

    /// Creates the pipe and installs the handlers; returns the read end to poll, or `nil` when no
    /// pipe could be made.
    static func install() -> Int32? {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { return nil }
        for fd in ends {
            _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
            _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        }
        writeEnd = ends[1]
        // A mask inherited blocked (some launchers and test runners spawn that way) would keep
        // Ctrl-C and SIGTERM from ever arriving.
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in ending + [resize, suspend] {
            sigaddset(&unblock, number)
        }
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        for number in ending + [resize, suspend] {
            // A signal ignored by whoever started us (`nohup`, a background job of a script) stays
            // ignored, as it would for any program.
            let previous = signal(number, SIG_IGN)
            if !isIgnored(previous) { handle(number) }
        }
        return ends[0]
    }

    private static func isIgnored(_ handler: sighandler_t?) -> Bool {
        unsafeBitCast(handler, to: Int.self) == unsafeBitCast(SIG_IGN, to: Int.self)
    }

    /// Installs the byte-writing handler for `signal` (again, after it was reset to the default).
    static func handle(_ number: Int32) {
        // glibc's and macOS's `signal` have BSD semantics: the handler stays and interrupted
        // system calls restart (poll still returns EINTR, which the loop expects).
        _ = signal(number) { received in
            let saved = errno
            var byte = UInt8(truncatingIfNeeded: received)
            // A full pipe already holds a wake-up: dropping this byte loses nothing that matters.
            _ = write(FollowSignals.writeEnd, &byte, 1)
            errno = saved
        }
    }

    /// The byte `wake()` writes: no signal has the number 0.
    static let wakeUp: Int32 = 0

    /// Wakes the loop from another thread (`ServerFollower` has a note for it): `drain` then
    /// returns `wakeUp`. Does nothing before `install()`.
    static func wake() {
        guard writeEnd >= 0 else { return }
        var byte = UInt8(wakeUp)
        _ = write(writeEnd, &byte, 1)
    }

    /// The signals received since the last call, in order (each kind at most a few times).
    static func drain(_ readEnd: Int32) -> [Int32] {
        var received: [Int32] = []
        var buffer = [UInt8](repeating: 0, count: 64)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(readEnd, $0.baseAddress, $0.count) }
            if count > 0 {
                received += buffer[..<count].map { Int32($0) }
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                return received
            }
        }
    }

    /// Ends the process by `number` with its default action, so that the parent sees what a
    /// signal-killed program shows (a shell reports 128 + n and a script stops, as it should
    /// after Ctrl-C). Falls back to exit status 128 + n should the signal not end the process.
    static func endProcess(by number: Int32) -> Never {
        _ = signal(number, SIG_DFL)
        var unblock = sigset_t()
        sigemptyset(&unblock)
        sigaddset(&unblock, number)
        sigprocmask(SIG_UNBLOCK, &unblock, nil)
        raise(number)
        exit(128 + number)
    }

    /// Stops the process as Ctrl-Z would (default action of SIGTSTP) and returns once it is
    /// continued (`fg`, `bg`, SIGCONT).
    static func stopUntilContinued() {
        _ = signal(SIGTSTP, SIG_DFL)
        raise(SIGTSTP)
        handle(SIGTSTP)
    }
}
