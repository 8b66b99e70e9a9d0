#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The terminal as `timeline browse` holds it: raw keys (no line editing, no echo; Ctrl-C and
/// Ctrl-Z still send their signals), the alternate screen, the cursor hidden and line wrapping
/// off, and the way back to exactly the settings found, on every exit path.
///
/// - Quitting, Ctrl-C, SIGTERM and SIGHUP reach the browse loop through `FollowSignals`' pipe,
///   and the loop calls `leave()` before the process ends.
/// - A crash (SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT: a Swift runtime trap is one of
///   these) cannot go back to the loop: the handler installed by `enter()` writes the bytes that
///   leave the alternate screen and sets the saved settings back with `tcsetattr` (both are
///   async-signal-safe), then puts the previous handler back and raises the signal again, so the
///   crash goes on as it would have (a core dump, Swift's backtrace), on a usable terminal.
///
/// A single one exists at a time: the handler reads its state from statics set before it is
/// installed.
struct BrowseTerminal {
    /// Standard input, whose settings are changed and whose keys are read.
    static let input = STDIN_FILENO

    /// The terminal's settings as found; set once before any handler that reads it is installed.
    nonisolated(unsafe) private static var saved = termios()
    /// The handlers found for the crash signals, put back by ours (index as in `crashSignals`).
    nonisolated(unsafe) private static var previousActions: UnsafeMutablePointer<sigaction>?

    static let crashSignals: [Int32] = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGABRT]

    /// Alternate screen (xterm's 1049 also saves the cursor), cursor hidden, autowrap off (a
    /// line as wide as the window must not push the next one down).
    static let enterSequence = "\u{1b}[?1049h\u{1b}[?25l\u{1b}[?7l"
    /// The reverse: autowrap on, cursor shown, the normal screen back as it was.
    static let leaveSequence = "\u{1b}[?7h\u{1b}[?25h\u{1b}[?1049l"
    /// `leaveSequence` as C bytes the crash handler can write without allocating.
    nonisolated(unsafe) private static let leaveBytes: UnsafeMutablePointer<CChar> = strdup(leaveSequence)

    /// Whether standard input is a terminal this process may take: one whose foreground it is in.
    static var canEnter: Bool {
        var settings = termios()
        return isatty(input) == 1 && tcgetpgrp(input) == getpgrp() && tcgetattr(input, &settings) == 0
    }

    /// Takes the terminal: saves its settings, switches to raw keys and the alternate screen.
    /// `nil` (nothing changed) when standard input is not a terminal whose settings we may
    /// change (a background job would be stopped by SIGTTOU).
    static func enter() -> BrowseTerminal? {
        guard canEnter else { return nil }
        var settings = termios()
        guard tcgetattr(input, &settings) == 0 else { return nil }
        saved = settings
        installCrashHandlers()
        guard setRaw() else { return nil }
        Terminal.emit(enterSequence)
        return BrowseTerminal()
    }

    /// Raw keys from the saved settings: no canonical lines, no echo, no Ctrl-V/Ctrl-O
    /// (IEXTEN), no Ctrl-S/Ctrl-Q flow control, Return as `\r`; one byte is enough for a read.
    /// Signals (ISIG) stay: Ctrl-C and Ctrl-Z act as everywhere else.
    @discardableResult
    static func setRaw() -> Bool {
        var raw = saved
        raw.c_lflag &= ~tcflag_t(ICANON | ECHO | IEXTEN)
        raw.c_iflag &= ~tcflag_t(IXON | ICRNL)
        withUnsafeMutableBytes(of: &raw.c_cc) { cc in
            cc[Int(VMIN)] = 1
            cc[Int(VTIME)] = 0
        }
        return tcsetattr(input, TCSANOW, &raw) == 0
    }

    /// Gives the terminal back as found: the normal screen, the cursor, the saved settings
    /// (typed-ahead keys dropped, so they do not surprise the shell). SIGTTOU is ignored
    /// meanwhile: after a `bg`, the terminal is restored rather than the process stopped.
    func leave() {
        Terminal.emit(Self.leaveSequence)
        let previous = signal(SIGTTOU, SIG_IGN)
        var settings = Self.saved
        _ = tcsetattr(Self.input, TCSAFLUSH, &settings)
        _ = signal(SIGTTOU, previous)
    }

    /// Leaves the terminal for a while (Ctrl-Z, a browser in the terminal), then `resume()`.
    func suspend() { leave() }

    /// Takes the terminal again after `suspend()`.
    func resume() {
        Self.setRaw()
        Terminal.emit(Self.enterSequence)
    }

    /// Installs the crash handlers, keeping those found.
    private static func installCrashHandlers() {
        // A static is made at its first use, through a lock and (here) `strdup`: made in the
        // handler, it could wait forever on a lock the interrupted thread holds (a crash or a
        // `kill` in the middle of `malloc`). Everything the handler reads is made now.
        _ = leaveBytes
        _ = input
        let previous = UnsafeMutablePointer<sigaction>.allocate(capacity: crashSignals.count)
        previous.initialize(repeating: sigaction(), count: crashSignals.count)
        previousActions = previous
        for (index, number) in crashSignals.enumerated() {
            var action = sigaction()
            #if canImport(Darwin)
            action.__sigaction_u.__sa_handler = { received in BrowseTerminal.restoreFromCrash(received) }
            #else
            action.__sigaction_handler.sa_handler = { received in BrowseTerminal.restoreFromCrash(received) }
            #endif
            sigemptyset(&action.sa_mask)
            action.sa_flags = 0
            _ = sigaction(number, &action, previous + index)
        }
    }

    /// The index of `number` in `crashSignals`, without touching the array (from the handler).
    private static func crashIndex(of number: Int32) -> Int? {
        switch number {
        case SIGSEGV: 0
        case SIGBUS: 1
        case SIGILL: 2
        case SIGFPE: 3
        case SIGTRAP: 4
        case SIGABRT: 5
        default: nil
        }
    }

    /// The crash handler: only async-signal-safe calls (`write`, `tcsetattr`, `sigaction`,
    /// `raise`), reading statics set before it was installed.
    private static func restoreFromCrash(_ number: Int32) {
        _ = write(STDOUT_FILENO, leaveBytes, strlen(leaveBytes))
        var settings = saved
        _ = tcsetattr(input, TCSANOW, &settings)
        if let previousActions, let index = crashIndex(of: number) {
            _ = sigaction(number, previousActions + index, nil)
        } else {
            _ = signal(number, SIG_DFL)
        }
        // Blocked while this handler runs: delivered, to the handler put back, once it returns
        // (and a fault, when the instruction runs again, meets that handler too).
        raise(number)
    }
}
