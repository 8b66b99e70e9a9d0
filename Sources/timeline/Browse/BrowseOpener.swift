import TimelineKit

/// Opens a post's web address for `timeline browse` (`o`): with `$BROWSER` when it is set (run
/// in the terminal, which the view gives up meanwhile, as a text browser such as `w3m` needs
/// it), else with `xdg-open` (`open` on macOS) in a graphical session, else not at all: the
/// address is then shown on the status line, to copy.
///
/// Only `http` and `https` addresses are opened: the address comes from a server, and a
/// `file:` or an application's own scheme must not start anything on this machine.
enum BrowseOpener {
    /// What happened, for the status line.
    enum Outcome: Equatable {
        case opened(with: String)
        case failed(String)
        case noBrowser
        case notAWebAddress
    }

    /// Whether `url` may be opened: `http://` or `https://`, and nothing a shell or a terminal
    /// could read as more than an address (no spaces or control characters).
    static func isWebAddress(_ url: String) -> Bool {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else { return false }
        return url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
    }

    /// Opens `url`; `terminal` is given up around a `$BROWSER` that runs in it.
    static func open(_ url: String, terminal: BrowseTerminal) -> Outcome {
        guard isWebAddress(url) else { return .notAWebAddress }
        if let browser = Terminal.environment("BROWSER"), !browser.isEmpty {
            terminal.suspend()
            defer { terminal.resume() }
            // `$BROWSER` is a command line of the person's (`firefox`, `w3m -o x=y`): the shell
            // splits it; the address is an argument, never part of the script.
            guard let child = try? ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", #"$BROWSER "$1""#, "sh", url],
                                                descriptors: [:])
            else { return .failed("$BROWSER could not be started") }
            let ended = child.wait()
            return ended == .exited(0) ? .opened(with: "$BROWSER") : .failed("$BROWSER ended with \(ended)")
        }
        return Browser.openIfAtHand(url) ? .opened(with: "the browser") : .noBrowser
    }
}
