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

/// `timeline show --follow`: after the usual paint, stays and shows every change committed by any
/// process, until a signal or a closed pipe ends it.
///
/// **No async machinery.** The loop is one thread blocked in `poll(2)` on the self-pipe of
/// `FollowSignals`, on standard output (to see a reader close the pipe) and, on Linux, on the
/// library's notice of writes to the database and its WAL (`DatabaseWriteWake`, which also
/// decides when to check: once a second when idle, every 20 ms for a second after a write, every
/// 100 ms without notices; `TimelineStore.changes(since:)` uses the same). Each wake-up asks the
/// library's watcher, which reads one number from SQLite's shared memory when nothing was
/// committed. Plain `show` never gets here, so it pays nothing for any of this.
///
/// **On a terminal** the block of messages stays live: while it fits the window (every line on
/// the screen, one row each: no `--limit` larger than the window, no width wider than it), each
/// change repaints it in place (`\r`, up n rows, erase down), new messages at the top, edits and
/// removals shown as they are, older messages leaving at the bottom; ages are refreshed once a
/// minute. When it does not fit, new messages are printed below as they arrive, oldest first so
/// the newest is the last line (like `tail -f`), and a note line counts changes and removals of
/// messages printed earlier. A resized window (once resizing pauses for 150 ms), a return from
/// Ctrl-Z or a line written to the terminal's standard error start a fresh block below
/// (`ScreenBlock`, the same rules as `show`'s one update). Keys are not echoed meanwhile
/// (`TerminalEcho`).
///
/// **On a pipe** (or with `--json`) every message the database gained since the last check is one
/// more entry (one more JSON line with `--json`), oldest first: new ones and back-filled old ones,
/// however many a writer stored at once (`TimelineStore.additions(after:limit:)`, one page of
/// 200 per turn of the loop, so that a signal is still seen between pages). Edits and removals
/// are not printed (a reader wanting them uses TimelineKit's `TimelineStore.changes(since:)`).
///
/// **Accounts.** With accounts logged in, `ServerFollower` keeps them live from their servers on
/// tasks of their own, storing what streams in; the loop sees their commits like any other
/// writer's and prints their notes (a refused token) from its own thread.
///
/// **Ending.** SIGINT, SIGTERM and SIGHUP: the terminal's settings are restored, the snapshot is
/// refreshed, and the process ends by the same signal (status 130, 143, 129 in a shell). A closed
/// pipe (EPIPE, or POLLERR on standard output): the same, then exit status 0, silently. A
/// database that cannot be read any more: a note and the matching exit status. The snapshot is
/// refreshed after every change shown (from the window the watcher just read, unless the database
/// moved again), so a `show` in another terminal paints the truth.
struct FollowLoop {
    let request: ShowRequest
    let store: TimelineStore
    let watcher: TimelineChangeWatcher
    let busyTimeout: Int
    /// On a terminal, the live block; `nil` on a pipe.
    private let screen: ScreenBlock?
    /// On a pipe, how text entries are rendered.
    private let renderer: TimelineRenderer
    private var echo: TerminalEcho?
    /// The accounts' servers feeding the database, when any are logged in.
    private var server: ServerFollower?
    private var snapshotNoteShown = false
    /// On a pipe: where the listing of stored messages goes on from, and whether a listing has
    /// pages left to print.
    private var additions: AdditionCursor?
    private var listingPending: Bool
    /// On a pipe: the messages printed before following, which the first listing skips (its
    /// cursor was taken before they were read, so it may list some of them again).
    private var printedBeforeFollowing: Set<String>

    /// How many messages a page of a pipe's listing holds.
    static let additionsPageSize = 200

    /// How long a resize must pause before the block is laid out again.
    static let resizeSettleMilliseconds: UInt64 = 150
    /// How often the ages ("3m") of a live block are brought up to date.
    static let ageRefreshMilliseconds: UInt64 = 60_000

    /// Follows the changes after `baseline`, the window and state just shown: on a terminal in
    /// `screen`, the block painted; on a pipe from `additions`, a cursor taken before `baseline`
    /// was read, skipping the messages already `printed`.
    init(request: ShowRequest, store: TimelineStore, baseline: TimelineSnapshot, screen: ScreenBlock?,
         renderer: TimelineRenderer, additions: AdditionCursor?, printed: TimelinePage?, busyTimeout: Int) {
        self.request = request
        self.store = store
        self.watcher = TimelineChangeWatcher(store: store, since: baseline)
        self.screen = screen
        self.renderer = renderer
        self.busyTimeout = busyTimeout
        self.additions = screen == nil ? additions : nil
        // The first listing prints what was stored between the cursor and the first output.
        self.listingPending = self.additions != nil
        self.printedBeforeFollowing = Set(printed?.messages.map(\.id) ?? [])
    }

    private enum Ending {
        case signal(Int32)
        case outputClosed
        case failure(Int32)
    }

    mutating func run() -> Int32 {
        guard let signals = FollowSignals.install() else {
            Terminal.emitError("timeline: cannot follow: no pipe for signals (\(String(cString: strerror(errno)))).\n")
            return ExitStatus.failure
        }
        if screen != nil { echo = TerminalEcho.disable(on: STDOUT_FILENO) }
        server = ServerFollower.start(databasePath: store.path)
        let ending = loop(signals: signals)
        server?.stop()
        echo?.restore()
        refreshSnapshot()
        switch ending {
        case let .signal(number): FollowSignals.endProcess(by: number)
        case .outputClosed: return ExitStatus.success
        case let .failure(status): return status
        }
    }

    private mutating func loop(signals: Int32) -> Ending {
        var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: STDOUT_FILENO, events: 0, revents: 0)]
        var wake = DatabaseWriteWake(databasePath: store.path, pollInterval: TimelineChangeWatcher.defaultPollInterval)
        if let notices = wake.descriptor { fds.append(pollfd(fd: notices, events: Int16(POLLIN), revents: 0)) }
        var relayoutAt: UInt64?
        var ageRefreshAt = Self.milliseconds() + Self.ageRefreshMilliseconds
        while true {
            for index in fds.indices { fds[index].revents = 0 }
            let timeout = listingPending ? 0 : wake.timeoutMilliseconds()
            if poll(&fds, nfds_t(fds.count), timeout) < 0, errno != EINTR {
                Terminal.emitError("timeline: stopped following: poll failed (\(String(cString: strerror(errno)))).\n")
                return .failure(ExitStatus.failure)
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                for signal in FollowSignals.drain(signals) {
                    if FollowSignals.ending.contains(signal) { return .signal(signal) }
                    if signal == FollowSignals.wakeUp {
                        for note in server?.takeNotes() ?? [] { Terminal.emitError(note) }
                    }
                    if signal == FollowSignals.resize {
                        relayoutAt = Self.milliseconds() + Self.resizeSettleMilliseconds
                    } else if signal == FollowSignals.suspend {
                        echo?.restore()
                        FollowSignals.stopUntilContinued()
                        if echo != nil { echo = TerminalEcho.disable(on: STDOUT_FILENO) }
                        // The shell wrote below the block meanwhile: relayout paints a new one.
                        relayoutAt = Self.milliseconds()
                    }
                }
            }
            // The reader of the pipe went away, or the terminal hung up without a SIGHUP.
            if fds[1].revents & Int16(POLLERR | POLLHUP) != 0 { return .outputClosed }
            if wake.isNotified, fds[2].revents & Int16(POLLIN) != 0 { wake.noteWrite() }

            if let at = relayoutAt, Self.milliseconds() >= at {
                relayoutAt = nil
                if let text = screen?.relayout(watcher.baseline.window, window: Terminal.windowSize(), now: Date()),
                   let ending = write(text) { return ending }
            }
            do throws(TimelineStoreError) {
                if let changes = try watcher.check() {
                    if let ending = show(changes) { return ending }
                    refreshSnapshot()
                }
                if listingPending, let ending = try printAdditions() { return ending }
            } catch {
                // Another process holds the database exclusively: look again on the next tick.
                if case .busy = error { continue }
                Terminal.emitError("timeline: stopped following: \(error)\n")
                return .failure(exitStatus(for: error))
            }
            if screen?.isLive == true, Self.milliseconds() >= ageRefreshAt {
                ageRefreshAt = Self.milliseconds() + Self.ageRefreshMilliseconds
                if let text = screen?.refreshAges(watcher.baseline.window, now: Date()), let ending = write(text) { return ending }
            }
        }
    }

    // MARK: Showing changes

    private mutating func show(_ changes: TimelineChanges) -> Ending? {
        guard screen != nil else {
            listingPending = true
            return nil
        }
        guard let text = screen?.show(changes, now: Date()) else { return nil }
        return write(text)
    }

    /// On a pipe: one page of the messages stored since the last listing, oldest first.
    private mutating func printAdditions() throws(TimelineStoreError) -> Ending? {
        guard let cursor = additions else { return nil }
        let added = try store.additions(after: cursor, limit: Self.additionsPageSize)
        additions = added.cursor
        listingPending = added.hasMore
        if added.mayHaveMissedSome {
            Terminal.emitError("timeline: the most recently stored messages were deleted while following; a message stored at the same moment may be missing from the output.\n")
        }
        var page = added.page
        if !printedBeforeFollowing.isEmpty {
            page.messages.removeAll { printedBeforeFollowing.contains($0.id) }
            if !added.hasMore { printedBeforeFollowing = [] }
        }
        if page.messages.isEmpty { return nil }
        if request.json { return write(JSONLinesShowOutput.lines(for: page)) }
        if let template = request.template { return write(template.text(for: page)) }
        return write(TimelineRenderer.text(of: renderer.render(page, now: Date())))
    }

    // MARK: Output and snapshot

    /// Writes `text` to standard output; a reader that went away ends the loop quietly.
    private func write(_ text: String) -> Ending? {
        var text = text
        do throws(Errno) {
            try text.withUTF8 { bytes in Result { () throws(Errno) in try FileDescriptor.standardOutput.writeAll(UnsafeRawBufferPointer(bytes)) } }.get()
            return nil
        } catch {
            if error == .brokenPipe || error == .ioError { return .outputClosed }
            Terminal.emitError("timeline: stopped following: cannot write the output (\(error)).\n")
            return .failure(ExitStatus.failure)
        }
    }

    /// Brings the snapshot up to date (nothing when the writer already did): the next `show` in
    /// another terminal paints what this one shows. A failure is noted once; following goes on.
    private mutating func refreshSnapshot() {
        if request.fromDatabase { return }
        do throws(TimelineStoreError) {
            try store.writeSnapshot(lockTimeout: .milliseconds(busyTimeout), reusing: watcher.baseline)
        } catch {
            if snapshotNoteShown { return }
            snapshotNoteShown = true
            Terminal.emitError("timeline: could not refresh the snapshot: \(error)\n")
        }
    }

    static func milliseconds() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return UInt64(now.tv_sec) * 1000 + UInt64(now.tv_nsec) / 1_000_000
    }
}
