import TimelineKit

/// Opens web addresses in the person's browser, in one place for every command that does:
/// `timeline open` and `browse`'s `o` (``open(_:around:)``, `$BROWSER` first), and `timeline
/// login` (``openIfAtHand(_:)``, only when a person is there to see it).
///
/// Addresses come from servers, so only `http` and `https` ones are opened (``isWebAddress(_:)``):
/// a `file:` or an application's own scheme must not start anything on this machine. The address
/// is always one argument of the program run, never part of a shell's script.
enum Browser {
    /// What ``open(_:around:)`` did.
    enum Outcome: Equatable {
        /// A program opened it: `$BROWSER`'s (its name) or the system's opener.
        case opened(with: String)
        /// Every program tried ended in failure; the reason names the last.
        case failed(String)
        /// No program to open it with: `$BROWSER` is unset (or names nothing installed) and no
        /// system opener is on `PATH`.
        case noBrowser
    }

    /// Whether `url` may be opened: `http://` or `https://`, and nothing a terminal could read as
    /// more than an address (no spaces, no C0 or C1 control characters, no DEL).
    static func isWebAddress(_ url: String) -> Bool {
        let lowered = url.lowercased()
        guard lowered.hasPrefix("https://") || lowered.hasPrefix("http://") else { return false }
        return url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value != 0x7F && !(0x80...0x9F).contains($0.value) }
    }

    /// The system's opener: `open` on macOS, `xdg-open` elsewhere.
    static var systemOpener: String {
        #if os(macOS)
        "open"
        #else
        "xdg-open"
        #endif
    }

    /// The command lines `$BROWSER` (`browser`) names for `url`, in the order to try them, read
    /// as `xdg-open` and `sensible-browser` read it: a colon-separated list of commands, each
    /// split into words at spaces and tabs (no quoting); `%s` in a command is replaced by the
    /// address (`%%` is a `%`), and a command without `%s` gets the address as its last word.
    /// The address stays inside one word, so it is one argument whatever it holds.
    static func commandLines(browser: String, url: String) -> [[String]] {
        browser.split(separator: ":").compactMap { entry -> [String]? in
            let words = entry.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            guard !words.isEmpty else { return nil }
            guard entry.contains("%s") else { return words + [url] }
            return words.map { word in
                var result = ""
                var characters = word.makeIterator()
                while let character = characters.next() {
                    guard character == "%" else {
                        result.append(character)
                        continue
                    }
                    switch characters.next() {
                    case "s": result += url
                    case "%": result.append("%")
                    case let other?: result.append("%"); result.append(other)
                    case nil: result.append("%")
                    }
                }
                return result
            }
        }
    }

    /// Opens `url` (which must pass ``isWebAddress(_:)``) with the first of `$BROWSER`'s
    /// commands that is installed and succeeds, else with the system's opener (`xdg-open`,
    /// `open`) when it is on `PATH`. Each program runs in this terminal and is waited for (a text
    /// browser such as `w3m` needs the terminal); `around` wraps each run (`browse` gives its
    /// screen up meanwhile). Nothing goes through a shell.
    static func open(_ url: String, around: (() -> Termination?) -> Termination? = { $0() }) -> Outcome {
        precondition(isWebAddress(url), "only web addresses are opened")
        var failure: String?
        var candidates: [(name: String, argv: [String])] = []
        if let browser = Terminal.environment("BROWSER") {
            candidates += commandLines(browser: browser, url: url).map { ("$BROWSER (\(TerminalText.line($0[0])))", $0) }
        }
        candidates.append((systemOpener, [systemOpener, url]))
        for candidate in candidates {
            let ended = around {
                // posix_spawnp looks the program up on PATH; not installed is ENOENT.
                guard let child = try? ChildProcess(executable: candidate.argv[0], arguments: candidate.argv, descriptors: [:]) else { return nil }
                return child.wait()
            }
            switch ended {
            case nil: continue
            case .exited(0)?: return .opened(with: candidate.name)
            case let .exited(status)?: failure = "\(candidate.name) ended with status \(status)"
            case let .signalled(signal)?: failure = "\(candidate.name) was ended by signal \(signal)"
            }
        }
        return failure.map { .failed($0) } ?? .noBrowser
    }

    /// How a program run by ``open(_:around:)`` ended.
    typealias Termination = ChildProcess.Termination

    /// Starts `xdg-open URL` (`open URL` on macOS) in the background, its output discarded, and
    /// returns whether it tried: only when a person is there to see it (standard input and error
    /// are a terminal) and, off macOS, a graphical session is (`DISPLAY` or `WAYLAND_DISPLAY`),
    /// never from a script or a pipe. For `timeline login`, whose URL is public (an application
    /// ID and a PKCE challenge).
    @discardableResult
    static func openIfAtHand(_ url: String) -> Bool {
        guard StandardInput.isTerminal, Terminal.standardErrorIsTerminal else { return false }
        #if !os(macOS)
        guard Terminal.environment("DISPLAY") != nil || Terminal.environment("WAYLAND_DISPLAY") != nil else { return false }
        #endif
        // The shell returns at once; the opener goes on without us (some wait for the browser).
        // The address is its argument "$1", never part of the script.
        let script = #"command -v "$0" >/dev/null 2>&1 || exit 1; "$0" "$1" >/dev/null 2>&1 </dev/null &"#
        guard let child = try? ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", script, systemOpener, url],
                                            descriptors: [0: .null, 1: .null, 2: .null])
        else { return false }
        return child.wait() == .exited(0)
    }
}
