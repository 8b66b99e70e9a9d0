#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TimelineKit

/// `timeline browse`: the interactive view. The view itself (`BrowseView`, TimelineKit) is a
/// value that turns keys into a screen and into requests; this type does the input and output
/// around it, in one thread with no async machinery, as `show --follow` does:
///
/// 1. The first paint comes from the snapshot before the database is opened (`show`'s path:
///    only the messages a screen shows are decoded).
/// 2. The database is opened and the paint reconciled with it (the whole snapshot window, which
///    the view scrolls through; older pages are read as the selection nears the end).
/// 3. A `poll(2)` loop waits on the keys (standard input), the signals (`FollowSignals`' pipe)
///    and, on Linux, inotify on the database and its WAL; every wake-up asks the library's
///    `TimelineChangeWatcher`, so a sync or another terminal's write shows in place.
///
/// Every exit path gives the terminal back (`BrowseTerminal`): `q`, Ctrl-C, SIGTERM and
/// SIGHUP through the loop (then the process ends by the same signal, as `show -f` does),
/// a crash through the handler `BrowseTerminal` installs. When standard input or output is not a
/// terminal, `browse` is `show`: a script or a pipe gets what `show` prints.
struct BrowseRunner {
    let request: BrowseRequest

    /// How long an escape byte alone waits for the rest of a sequence before it is the Escape
    /// key: sequences arrive in one read in practice, even over ssh.
    static let escapeWaitMilliseconds: Int32 = 30

    func run() -> Int32 {
        guard Terminal.standardOutputIsTerminal, StandardInput.isTerminal else { return showInstead() }
        let location: TimelineLocation
        do throws(TimelineLocation.ResolutionError) {
            location = try TimelineLocation.resolve(explicitPath: request.databasePath)
        } catch {
            Terminal.emitError("timeline: \(error)\n")
            return ExitStatus.failure
        }
        let window = Terminal.windowSize() ?? (columns: 80, rows: 24)
        let options = RenderOptions(width: window.columns, color: request.color.usesColor(onTerminal: true),
                                    revealsContentWarnings: request.expand, symbols: Terminal.symbols)
        // 1. The snapshot: as many messages as a screen can show, as `show` reads.
        let preview = try? SnapshotFile(path: location.snapshotPath).readPreview(messages: window.rows / 2 + 1)
        // A terminal in the background (or one whose settings cannot be read) is not taken:
        // `show` prints instead, with the signals' default dispositions it expects.
        guard BrowseTerminal.canEnter else { return showInstead() }
        guard let signals = FollowSignals.install() else {
            Terminal.emitError("timeline: cannot browse: no pipe for signals (\(String(cString: strerror(errno)))).\n")
            return ExitStatus.failure
        }
        guard let terminal = BrowseTerminal.enter() else {
            Terminal.emitError("timeline: cannot browse: the terminal's settings cannot be changed (\(String(cString: strerror(errno)))).\n")
            return ExitStatus.failure
        }
        var session = BrowseSession(
            view: BrowseView(timeline: preview?.head ?? TimelinePage(messages: []), columns: window.columns, rows: window.rows,
                             options: options, now: Date()),
            terminal: terminal, location: location)
        if preview != nil { session.paint() }
        let ending = session.start(preview: preview, signals: signals)
        terminal.leave()
        session.refreshSnapshot()
        switch ending {
        case .quit:
            return ExitStatus.success
        case let .signal(number):
            FollowSignals.endProcess(by: number)
        case let .failure(message, status):
            Terminal.emitError(message)
            return status
        }
    }

    /// Not on a terminal: what `timeline show` prints.
    private func showInstead() -> Int32 {
        var show = ShowRequest()
        show.databasePath = request.databasePath
        show.style.color = request.color
        show.expand = request.expand
        return ShowRunner(request: show).run()
    }
}
