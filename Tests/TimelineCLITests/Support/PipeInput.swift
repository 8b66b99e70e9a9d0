#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// Writes what a test gives a child process on its standard input.
///
/// A child may end before it reads everything (a refused argument, a bad first line, or just
/// before this thread runs again on a loaded machine): the write then raises SIGPIPE, whose
/// default action ends the whole test process, every test with it. SIGPIPE is blocked on this
/// thread for the write (the write fails with EPIPE instead, and that is ignored: the child's
/// exit status and output say what happened), and a SIGPIPE it left pending is taken before the
/// mask is put back. Process-wide `SIG_IGN` would be inherited by every child the tests start.
enum PipeInput {
    static func write(_ data: Data, to handle: FileHandle) {
        var brokenPipe = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var now = timespec()
                _ = sigtimedwait(&brokenPipe, nil, &now)
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        try? handle.write(contentsOf: data)
    }
}
