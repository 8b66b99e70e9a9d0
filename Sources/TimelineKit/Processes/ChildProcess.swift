#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Runs a program with pipes on chosen descriptors, in one place with the C calls it needs
/// (`posix_spawn`, `fork` and `execve` for a detached child, `pipe`, `poll`, `read`, `write`,
/// `kill`, `waitpid`). FoundationEssentials has
/// no `Process`, and full Foundation's would cost every launch its start-up time; this is also
/// what lets a secret reach a child through a pipe instead of its arguments.
///
/// One thread owns a child: it spawns it, pumps its pipes with ``pump(idleTimeout:deadline:output:)``,
/// kills it if need be and reaps it with ``wait()``. Other threads only ever call
/// ``Wakeup/signal()`` on its ``wakeup``, which makes the pump return so the owner can act:
/// no other thread sends a signal to a process ID that may already have been reaped and reused.
package final class ChildProcess {
    /// What a descriptor of the child is connected to.
    package enum Descriptor {
        /// The parent's own descriptor of that number, as it is.
        case inherit
        /// `/dev/null`.
        case null
        /// A pipe the pump writes these bytes to, then closes.
        case input([UInt8])
        /// A pipe the pump reads from, handing the bytes to its `output` closure.
        case output
    }

    /// Why a child could not be started.
    package struct SpawnError: Error, Sendable {
        /// The failing call ("pipe", "posix_spawn").
        package let operation: String
        /// Its `errno`; `ENOENT` from `posix_spawn` means the program is not installed.
        package let code: Int32

        package var isNotFound: Bool { code == ENOENT }
        package var reason: String { "\(operation): \(String(cString: strerror(code)))" }
    }

    /// How the child ended.
    package enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signalled(Int32)
    }

    /// How a pump ended.
    package enum PumpEnd: Sendable, Equatable {
        /// Every output reached its end (the child closed them, usually by exiting).
        case finished
        /// `output` returned false.
        case stopped
        /// The wakeup was signalled.
        case woken
        /// Nothing arrived for `idleTimeout`, or the deadline passed.
        case timedOut
    }

    /// The child's process ID.
    package let pid: pid_t
    /// Makes a running pump return ``PumpEnd/woken``; safe to signal from any thread.
    package let wakeup: Wakeup

    private var inputs: [(fd: Int32, bytes: [UInt8], offset: Int)]
    private var outputs: [(fd: Int32, target: Int32)]
    private var reaped = false

    /// Starts `executable` (looked up on `PATH` when it has no slash) with `arguments` (the
    /// first is the program's name as it sees it) and the inherited environment. Descriptors
    /// not named in `descriptors` are inherited as they are (TimelineKit opens its own with
    /// close-on-exec, so none leaks into the child).
    package init(
        executable: String, arguments: [String], descriptors: [Int32: Descriptor], wakeup: Wakeup? = nil
    ) throws(SpawnError) {
        if let wakeup { self.wakeup = wakeup } else { self.wakeup = try Wakeup() }
        var parentEnds: [Int32] = []
        var childEnds: [Int32] = []
        var inputs: [(fd: Int32, bytes: [UInt8], offset: Int)] = []
        var outputs: [(fd: Int32, target: Int32)] = []
        var failure: SpawnError?
        defer {
            for fd in childEnds { close(fd) }
            if failure != nil { for fd in parentEnds { close(fd) } }
        }

        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (target, descriptor) in descriptors.sorted(by: { $0.key < $1.key }) {
            switch descriptor {
            case .inherit:
                continue
            case .null:
                posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            case .input, .output:
                var ends: [Int32] = [-1, -1]
                guard Self.makePipe(&ends) else {
                    failure = SpawnError(operation: "pipe", code: errno)
                    throw failure!
                }
                let (parentEnd, childEnd) = if case .input = descriptor { (ends[1], ends[0]) } else { (ends[0], ends[1]) }
                parentEnds.append(parentEnd)
                childEnds.append(childEnd)
                // Non-blocking: the pump waits in poll, never in a read or write.
                _ = fcntl(parentEnd, F_SETFL, fcntl(parentEnd, F_GETFL) | O_NONBLOCK)
                // dup2 onto the target clears close-on-exec for the child's copy only.
                posix_spawn_file_actions_adddup2(&actions, childEnd, target)
                if case let .input(bytes) = descriptor {
                    inputs.append((parentEnd, bytes, 0))
                } else {
                    outputs.append((parentEnd, target))
                }
            }
        }

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // The child starts with no blocked signals (the pump's thread blocks them all) and with
        // SIGPIPE at its default even where this process ignores it.
        var empty = sigset_t()
        sigemptyset(&empty)
        posix_spawnattr_setsigmask(&attributes, &empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        sigaddset(&defaults, SIGPIPE)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var pid: pid_t = 0
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        let result = executable.contains("/")
            ? posix_spawn(&pid, executable, &actions, &attributes, argv, environ)
            : posix_spawnp(&pid, executable, &actions, &attributes, argv, environ)
        guard result == 0 else {
            failure = SpawnError(operation: "posix_spawn", code: result)
            throw failure!
        }
        self.pid = pid
        self.inputs = inputs
        self.outputs = outputs
    }

    /// The program and arguments that run `executable` with `arguments` so that it is killed
    /// (SIGKILL) the moment the thread that started it ends, this process included when it is
    /// killed itself: through util-linux's `setpriv --pdeathsig KILL` (the kernel's
    /// `PR_SET_PDEATHSIG`, set between fork and exec, which `posix_spawn` cannot do). Where
    /// `setpriv` is missing or too old, or `executable` cannot be found, they are returned as
    /// they are (the caller's own time limits still end the child).
    ///
    /// The owner thread of a ``ChildProcess`` lives until it has reaped the child, so the signal
    /// only ever comes when that thread, or the whole process, is gone.
    package static func dyingWithParent(executable: String, arguments: [String]) -> (executable: String, arguments: [String]) {
        guard let wrapper = parentDeathWrapper, let path = executablePath(executable) else { return (executable, arguments) }
        return (wrapper, ["setpriv", "--pdeathsig", "KILL", "--", path] + arguments.dropFirst())
    }

    /// `setpriv`'s path when it exists and takes `--pdeathsig` (util-linux 2.33 and later),
    /// checked once a process by running `setpriv --pdeathsig KILL -- true`.
    private static let parentDeathWrapper: String? = {
        #if os(Linux)
        guard let path = executablePath("setpriv"), let check = try? ChildProcess(
            executable: path, arguments: ["setpriv", "--pdeathsig", "KILL", "--", "true"], descriptors: [0: .null, 1: .null, 2: .null])
        else { return nil }
        return check.wait() == .exited(0) ? path : nil
        #else
        return nil
        #endif
    }()

    /// `name` when it holds a slash and is executable, else the first executable `name` in a
    /// directory of `PATH`; `nil` when there is none.
    package static func executablePath(_ name: String) -> String? {
        if name.contains("/") { return access(name, X_OK) == 0 ? name : nil }
        let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
        for directory in path.split(separator: ":", omittingEmptySubsequences: true) {
            let candidate = directory + "/" + name
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// What a detached child does first, before any other work: it lowers its own CPU priority
    /// by `niceness` (a process may always lower its own; it is never raised again) and waits
    /// `delay`. A shell start's background sync (issue 28) thereby leaves the two cores to the
    /// shell that started it while that shell reaches its prompt, and, at a lower priority,
    /// yields to whatever a person runs next while it syncs.
    package static func yieldToForeground(niceness: Int32, delay: Duration) {
        errno = 0
        _ = nice(niceness)
        let parts = delay.components
        var time = timespec(tv_sec: Int(parts.seconds), tv_nsec: Int(parts.attoseconds / 1_000_000_000))
        var left = timespec()
        // A signal that interrupts the wait resumes it for what is left.
        while nanosleep(&time, &left) == -1, errno == EINTR { time = left }
    }

    /// Starts `executable` in a session of its own, with standard input and output on
    /// `/dev/null` and standard error appended to `errorLog` (created 0600), and does not wait
    /// for it: the caller may exit at once, and the child, no longer tied to the terminal, is
    /// neither stopped by its hang-up nor reaped by anyone but init.
    ///
    /// `fork`, not `posix_spawn`: glibc's `posix_spawn` is a `vfork`, whose caller is suspended
    /// until the child has been scheduled, run its file actions and reached `execve`. At a shell
    /// start that wait is inside the hook's `show` (issue 28, stage 14: `show` alone 10 ms with a
    /// sync due against 2.3 ms without, on two loaded cores; strace: the `clone3` of
    /// `CLONE_VM|CLONE_VFORK` took 1.9 to 20 ms). A `fork` returns at once; the process is small
    /// and its file mappings are not copied. The log and `/dev/null` are opened here, so that a
    /// log that cannot be opened is still this call's error; an `execve` that fails (of this very
    /// program, `/proc/self/exe`) is said in the log.
    package static func spawnDetached(executable: String, arguments: [String], errorLog: String) throws(SpawnError) {
        let null = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard null >= 0 else { throw SpawnError(operation: "open /dev/null", code: errno) }
        defer { close(null) }
        let log = open(errorLog, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard log >= 0 else { throw SpawnError(operation: "open \(errorLog)", code: errno) }
        defer { close(log) }
        // A detached child must hold none of this process's other descriptors: a pipe it kept
        // open would make whoever reads this process's output wait for the whole sync.
        let inherited = openDescriptorsAboveStandard()
        // Everything the child uses is made before the fork: between fork and execve it calls
        // only async-signal-safe functions and allocates nothing.
        guard let path = strdup(executable) else { throw SpawnError(operation: "strdup", code: ENOMEM) }
        let argv: [UnsafeMutablePointer<CChar>?] = arguments.map { strdup($0) } + [nil]
        let failure = strdup("timeline: the background sync could not start: execve failed\n")
        defer {
            free(path)
            free(failure)
            for pointer in argv { free(pointer) }
        }
        let pid = argv.withUnsafeBufferPointer { argv -> pid_t in
            guard let argvBase = argv.baseAddress else { return -1 }
            let pid = fork()
            guard pid == 0 else { return pid }
            _ = setsid()
            var empty = sigset_t()
            sigemptyset(&empty)
            sigprocmask(SIG_SETMASK, &empty, nil)
            _ = signal(SIGPIPE, SIG_DFL)
            _ = signal(SIGHUP, SIG_DFL)
            _ = dup2(null, 0)
            _ = dup2(null, 1)
            _ = dup2(log, 2)
            for fd in inherited where fd > 2 { _ = close(fd) }
            _ = execve(path, argvBase, environ)
            if let failure { _ = write(2, failure, strlen(failure)) }
            _exit(127)
        }
        guard pid > 0 else { throw SpawnError(operation: "fork", code: errno) }
    }

    deinit {
        for input in inputs { close(input.fd) }
        for output in outputs { close(output.fd) }
        if !reaped {
            killProcess(pid, SIGKILL)
            _ = wait()
        }
    }

    /// A pipe whose two ends are close-on-exec and numbered above the standard descriptors, so
    /// that no dup2 in the child's file actions has the same source and target (which would
    /// leave close-on-exec set on older C libraries).
    private static func makePipe(_ ends: inout [Int32]) -> Bool {
        var raw: [Int32] = [-1, -1]
        guard pipe(&raw) == 0 else { return false }
        for index in 0..<2 {
            let moved = fcntl(raw[index], F_DUPFD_CLOEXEC, 10)
            close(raw[index])
            guard moved >= 0 else {
                if index == 1 { close(ends[0]) }
                return false
            }
            ends[index] = moved
        }
        return true
    }

    /// Writes the inputs and reads the outputs until every output ends, `output` returns false
    /// (it gets the child's descriptor number and the bytes), the wakeup is signalled, nothing
    /// arrives on any output for `idleTimeout`, or `deadline` passes.
    package func pump(
        idleTimeout: Duration? = nil,
        deadline: ContinuousClock.Instant? = nil,
        output: (_ target: Int32, _ bytes: [UInt8]) -> Bool
    ) -> PumpEnd {
        let clock = ContinuousClock()
        var lastOutput = clock.now
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while !outputs.isEmpty {
            var fds = inputs.map { pollfd(fd: $0.fd, events: Int16(POLLOUT), revents: 0) }
                + outputs.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
                + [pollfd(fd: wakeup.readEnd, events: Int16(POLLIN), revents: 0)]
            var limit: Duration?
            if let idleTimeout { limit = idleTimeout - (clock.now - lastOutput) }
            if let deadline { limit = min(limit ?? deadline - clock.now, deadline - clock.now) }
            if let limit, limit <= .zero { return .timedOut }
            let ready = poll(&fds, nfds_t(fds.count), limit.map(Self.milliseconds) ?? -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return .finished  // poll cannot fail on valid descriptors; treat it as the end
            }
            if ready == 0 { continue }  // the loop's top decides whether time is up
            if fds.last!.revents != 0 { return .woken }

            // Inputs: write what the pipe takes now; close when done or when the child is gone.
            var keptInputs: [(fd: Int32, bytes: [UInt8], offset: Int)] = []
            for (index, var input) in inputs.enumerated() {
                let events = fds[index].revents
                if events & Int16(POLLOUT) != 0 {
                    let written = Self.writeWithoutSignal(input.fd, input.bytes, from: input.offset)
                    if written >= 0 { input.offset += written }
                    if written < 0 && errno != EAGAIN && errno != EINTR { input.offset = input.bytes.count }
                } else if events & Int16(POLLERR | POLLHUP | POLLNVAL) != 0 {
                    input.offset = input.bytes.count
                }
                if input.offset < input.bytes.count { keptInputs.append(input) } else { close(input.fd) }
            }

            // Outputs: read what is there; an end of file closes that output.
            var keptOutputs: [(fd: Int32, target: Int32)] = []
            var stop = false
            for (offset, entry) in outputs.enumerated() {
                let events = fds[inputs.count + offset].revents
                guard !stop, events != 0 else {
                    keptOutputs.append(entry)
                    continue
                }
                // In bounds: reads at most buffer.count bytes into buffer's own storage.
                let got = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
                if got > 0 {
                    lastOutput = clock.now
                    keptOutputs.append(entry)
                    if !output(entry.target, Array(buffer[..<got])) { stop = true }
                } else if got < 0 && (errno == EAGAIN || errno == EINTR) {
                    keptOutputs.append(entry)
                } else {
                    close(entry.fd)
                }
            }
            inputs = keptInputs
            outputs = keptOutputs
            if stop { return .stopped }
        }
        return .finished
    }

    /// Reads whatever `target`'s pipe holds now, without waiting: bytes a child wrote before
    /// some later output, which the caller must see first.
    package func drain(_ target: Int32) -> [UInt8] {
        guard let entry = outputs.first(where: { $0.target == target }) else { return [] }
        var collected: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 14)
        while true {
            // In bounds: reads at most buffer.count bytes into buffer's own storage.
            let got = buffer.withUnsafeMutableBytes { read(entry.fd, $0.baseAddress, $0.count) }
            if got > 0 {
                collected += buffer[..<got]
            } else if got < 0 && errno == EINTR {
                continue
            } else {
                return collected
            }
        }
    }

    /// Ends the child at once (SIGKILL); call ``wait()`` after it.
    package func kill() {
        guard !reaped else { return }
        killProcess(pid, SIGKILL)
    }

    /// Waits for the child to end and reaps it, so it leaves no zombie.
    @discardableResult
    package func wait() -> Termination {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR {
                reaped = true
                return .exited(-1)
            }
        }
        reaped = true
        // The <sys/wait.h> macros are not imported into Swift: WIFEXITED is "low 7 bits zero",
        // WEXITSTATUS the next byte, WTERMSIG the low 7 bits.
        if status & 0x7F == 0 { return .exited((status >> 8) & 0xFF) }
        return .signalled(status & 0x7F)
    }

    private static func milliseconds(_ duration: Duration) -> Int32 {
        let (seconds, attoseconds) = duration.components
        let total = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int32(clamping: max(0, total))
    }

    /// A write that returns EPIPE instead of raising SIGPIPE when the child closed its end:
    /// SIGPIPE is blocked around the call and a pending one is consumed before unblocking, so
    /// the process's own handling of SIGPIPE (`show` on a closed pipe) is untouched.
    private static func writeWithoutSignal(_ fd: Int32, _ bytes: [UInt8], from offset: Int) -> Int {
        var block = sigset_t()
        sigemptyset(&block)
        sigaddset(&block, SIGPIPE)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &block, &previous)
        // In bounds: writes the bytes after `offset`, which is below bytes.count.
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
        let code = errno
        if written < 0 && code == EPIPE {
            var pending = sigset_t()
            sigpending(&pending)
            if sigismember(&pending, SIGPIPE) == 1 {
                var zero = timespec(tv_sec: 0, tv_nsec: 0)
                _ = sigtimedwait(&block, nil, &zero)
            }
        }
        pthread_sigmask(SIG_SETMASK, &previous, nil)
        errno = code
        return written
    }

    /// A pipe another thread writes one byte to, to make a pump return. Closed only when the
    /// last reference goes, and writes check under a lock that it is still open, so a late
    /// signal never writes to a descriptor number reused by something else.
    package final class Wakeup: Sendable {
        let readEnd: Int32
        private let writeEnd: Mutex<Int32>

        package init() throws(SpawnError) {
            var ends: [Int32] = [-1, -1]
            guard ChildProcess.makePipe(&ends) else { throw SpawnError(operation: "pipe", code: errno) }
            _ = fcntl(ends[1], F_SETFL, fcntl(ends[1], F_GETFL) | O_NONBLOCK)
            readEnd = ends[0]
            writeEnd = Mutex(ends[1])
        }

        /// Makes the pump return (now, or at once when it next starts).
        package func signal() {
            writeEnd.withLock { fd in
                guard fd >= 0 else { return }
                var byte: UInt8 = 1
                _ = write(fd, &byte, 1)
            }
        }

        deinit {
            close(readEnd)
            writeEnd.withLock { fd in
                close(fd)
                fd = -1
            }
        }
    }
}

/// `kill(2)`, named apart from ``ChildProcess/kill()``.
/// This process's open descriptors above 2, from `/proc/self/fd` (none where it does not exist).
private func openDescriptorsAboveStandard() -> [Int32] {
    guard let directory = opendir("/proc/self/fd") else { return [] }
    defer { closedir(directory) }
    let own = dirfd(directory)
    var descriptors: [Int32] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if let fd = Int32(name), fd > 2, fd != own { descriptors.append(fd) }
    }
    return descriptors
}

private func killProcess(_ pid: pid_t, _ signal: Int32) {
    _ = kill(pid, signal)
}
