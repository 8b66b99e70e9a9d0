#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the terminal from echoing keys while `show --follow` owns it: an Enter pressed by habit
/// (as people do in `tail -f`) would move the cursor under the live block, and the next in-place
/// repaint would land one row low. Only ECHO changes (Ctrl-C still sends SIGINT); `restore` puts
/// back exactly the settings found, and drops what was typed meanwhile so it does not surprise the
/// shell. Left alone when the process is not in the terminal's foreground (a background job must
/// not touch the terminal's settings, or it is stopped by SIGTTOU).
struct TerminalEcho {
    private let fd: Int32
    private let saved: termios

    /// Turns echo off on `fd`'s terminal; `nil` when it is not a terminal we may change.
    static func disable(on fd: Int32) -> TerminalEcho? {
        guard isatty(fd) == 1, tcgetpgrp(fd) == getpgrp() else { return nil }
        var settings = termios()
        guard tcgetattr(fd, &settings) == 0 else { return nil }
        let echo = TerminalEcho(fd: fd, saved: settings)
        settings.c_lflag &= ~tcflag_t(ECHO)
        guard tcsetattr(fd, TCSANOW, &settings) == 0 else { return nil }
        return echo
    }

    /// Puts the settings found back (SIGTTOU is ignored meanwhile: after a `bg`, the terminal is
    /// restored rather than the process stopped).
    func restore() {
        let previous = signal(SIGTTOU, SIG_IGN)
        var settings = saved
        _ = tcsetattr(fd, TCSAFLUSH, &settings)
        _ = signal(SIGTTOU, previous)
    }
}
