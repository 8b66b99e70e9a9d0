#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Runs blocking work (waiting in `poll` on a child's pipes for up to a request's timeout) on a
/// thread of its own, so that it never holds one of the few threads of Swift's cooperative pool
/// (two on a two-core machine) and never delays other tasks.
///
/// The thread starts with every signal blocked: signals meant for the process (Ctrl-C in
/// `show --follow`, SIGTERM) are delivered to the threads that handle them, not to this one.
enum DedicatedThread {
    /// Runs `body` on a new thread and returns its result. Not cancellable by itself: `body`
    /// must end on its own (the transport ends it by waking its pump).
    static func run<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            start { continuation.resume(returning: body()) }
        }
    }

    /// Starts `body` on a new detached thread; when no thread can be created, runs it here.
    static func start(_ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let context = Unmanaged.passRetained(Box(body)).toOpaque()
        var all = sigset_t()
        sigfillset(&all)
        var previous = sigset_t()
        // The new thread inherits the mask in force when it is created.
        pthread_sigmask(SIG_SETMASK, &all, &previous)
        var handle = pthread_t()
        let started = pthread_create(&handle, nil, { context in
            #if canImport(Darwin)
            let box = Unmanaged<Box>.fromOpaque(context).takeRetainedValue()
            #else
            let box = Unmanaged<Box>.fromOpaque(context!).takeRetainedValue()
            #endif
            box.body()
            return nil
        }, context)
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        if started == 0 {
            pthread_detach(handle)
        } else {
            Unmanaged<Box>.fromOpaque(context).takeRetainedValue().body()
        }
    }
}
