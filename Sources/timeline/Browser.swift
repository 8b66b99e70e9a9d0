import TimelineKit

/// Opens a page in the person's browser, for `timeline login`: only when a person is there to
/// see it (standard input and error are a terminal) and, off macOS, a graphical session is
/// (`DISPLAY` or `WAYLAND_DISPLAY`). Never from a script or a pipe.
enum Browser {
    /// Starts `xdg-open URL` (`open URL` on macOS) in the background, its output discarded, and
    /// returns whether it tried. The URL is public (an application ID and a PKCE challenge), so
    /// it may be an argument.
    @discardableResult
    static func openIfAtHand(_ url: String) -> Bool {
        guard StandardInput.isTerminal, Terminal.standardErrorIsTerminal else { return false }
        #if os(macOS)
        let opener = "open"
        #else
        guard Terminal.environment("DISPLAY") != nil || Terminal.environment("WAYLAND_DISPLAY") != nil else { return false }
        let opener = "xdg-open"
        #endif
        // The shell returns at once; the opener goes on without us (some wait for the browser).
        let script = #"command -v "$0" >/dev/null 2>&1 || exit 1; "$0" "$1" >/dev/null 2>&1 </dev/null &"#
        guard let child = try? ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", script, opener, url],
                                            descriptors: [0: .null, 1: .null, 2: .null])
        else { return false }
        return child.wait() == .exited(0)
    }
}
