import TimelineKit

/// Opens a post's web address for `timeline browse` (`o`), as `timeline open` does
/// (``Browser/open(_:around:)``: `$BROWSER`, else `xdg-open` or `open`), with the terminal given
/// up while each program runs (a text browser such as `w3m` needs it). With no browser, the
/// address is shown on the status line, to copy.
enum BrowseOpener {
    /// What happened, for the status line.
    enum Outcome: Equatable {
        case opened(with: String)
        case failed(String)
        case noBrowser
        case notAWebAddress
    }

    /// Opens `url`; `terminal` is given up around each program run.
    static func open(_ url: String, terminal: BrowseTerminal) -> Outcome {
        guard Browser.isWebAddress(url) else { return .notAWebAddress }
        let outcome = Browser.open(url) { run in
            terminal.suspend()
            defer { terminal.resume() }
            return run()
        }
        switch outcome {
        case let .opened(with: name): return .opened(with: name)
        case let .failed(reason): return .failed(reason)
        case .noBrowser: return .noBrowser
        }
    }
}
