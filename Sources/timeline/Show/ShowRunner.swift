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

/// `timeline show`: paint from the snapshot, then reconcile with the database and update the
/// screen. Every step is a TimelineKit call; this type decides only what goes to the terminal.
struct ShowRunner {
    let request: ShowRequest

    /// What `run` built, kept until the process exits. Tearing down a decoded snapshot, its
    /// rendering and the database connection released thousands of objects one by one: a tenth
    /// of the instructions of a whole `show` (callgrind), for memory the exit frees at once.
    /// `main` keeps the runner, and so this, alive until it calls `exit`.
    final class Retained {
        var preview: SnapshotPreview?
        var screen: ScreenBlock?
        var store: TimelineStore?
        var answer: TimelineReconciliation?
    }

    let retained = Retained()

    func run() -> Int32 {
        // A reader that goes away (`show -f | head`) must end a follow quietly with status 0:
        // writes then fail with EPIPE, which the follow loop handles, instead of killing it.
        if request.follow { signal(SIGPIPE, SIG_IGN) }
        let location: TimelineLocation
        do throws(TimelineLocation.ResolutionError) {
            location = try TimelineLocation.resolve(explicitPath: request.databasePath)
        } catch {
            Terminal.emitError("timeline: \(error)\n")
            return ExitStatus.failure
        }
        // JSON and templates are for programs: one line per message, never a live block.
        let onTerminal = !request.json && request.format == nil && Terminal.standardOutputIsTerminal
        let window = onTerminal ? Terminal.windowSize() : nil
        let renderer = request.style.renderer(columns: request.style.columns(window: window), onTerminal: onTerminal,
                                              revealsContentWarnings: request.expand)
        let now = Date()
        if !request.filter.isEmpty {
            startSyncIfDue(location: location, now: now)
            return showFiltered(location: location, renderer: renderer, onTerminal: onTerminal, now: now)
        }

        // 1. The first paint, from the snapshot alone: the database is not opened yet. Only the
        // messages a screen (or --limit) can show are decoded before it.
        var preview: SnapshotPreview?
        var snapshotProblem: SnapshotError?
        // The limit of a snapshot too small for `--limit`: the snapshot grows (see below).
        var outgrownLimit: Int?
        if !request.fromDatabase {
            do throws(SnapshotError) {
                // After the first, every entry takes two rows at least (a line and the empty line
                // before it), so a screen of `rows` never shows more than rows / 2 + 1.
                let shown = request.limit ?? (onTerminal ? window.map { $0.rows / 2 + 1 } : nil) ?? ScreenBlock.entriesWithoutWindow
                let candidate = try SnapshotFile(path: location.snapshotPath).readPreview(messages: shown)
                // A snapshot answers only when it holds as many messages as were asked for;
                // one too small grows (see `writeSnapshot`).
                if candidate.canShow(messages: request.limit ?? 0) { preview = candidate } else { outgrownLimit = candidate.limit }
            } catch {
                snapshotProblem = error
            }
        }
        retained.preview = preview
        let screen = onTerminal ? ScreenBlock(renderer: renderer, limit: request.limit, fixedWidth: request.style.width, window: window) : nil
        let painted = onTerminal && preview != nil
        if let preview, let paint = screen?.paint(preview.head, now: now) { Terminal.emit(paint) }
        retained.screen = screen
        // After the first paint, which it must not delay; before the reconciliation, so that the
        // sync's requests are on their way while the database is read, as when the hook ran
        // `sync --background` before `show`.
        startSyncIfDue(location: location, now: now)
        if !request.reconcile, let preview {
            if !painted { printOnce(preview.head, with: renderer, now: now) }
            return ExitStatus.success
        }

        // 2. Reconcile with the database, waiting at most `busyTimeout` for a lock; unless the
        // snapshot's stamp proves that the database did not change since, which opens nothing
        // (`--follow` and `--mark-read` need the database whatever it holds).
        if let preview, !request.follow, !request.markRead,
           let answer = TimelineStore.unchangedReconciliation(of: preview, databasePath: location.databasePath) {
            retained.answer = answer
            if !onTerminal { printOnce(answer.window, with: renderer, now: now) }
            emitNotices(onTerminal: onTerminal, location: location, now: now, columns: window?.columns)
            return ExitStatus.success
        }
        let busyTimeout = request.busyTimeout
        let store: TimelineStore
        do throws(TimelineStoreError) {
            store = try TimelineStore(path: location.databasePath, configuration: .init(
                createIfMissing: false, busyTimeout: .milliseconds(busyTimeout),
                migrationSizeLimit: Self.migrationSizeLimit))
        } catch {
            guard case .databaseMissing = error, request.follow, let created = createdForFollowing(location, busyTimeout: busyTimeout) else {
                return give(up: error, painted: painted, location: location, busyTimeout: busyTimeout)
            }
            store = created
        }
        retained.store = store
        do throws(TimelineStoreError) {
            // On a pipe, `--follow` prints every message stored after this, taken before the
            // window is read so that nothing stored in between is missed (see FollowLoop).
            let additions = request.follow && !onTerminal ? try store.additionCursor() : nil
            let answer = try store.reconcile(preview, atLeast: request.limit ?? 0, wholeWindow: request.follow)
            retained.answer = answer

            var printed: TimelinePage?
            if !onTerminal {
                printed = printOnce(answer.window, with: renderer, now: now)
            } else if let text = painted ? screen?.update(to: answer, now: now) : screen?.paint(answer.window, now: now) {
                Terminal.emit(text)
            }

            if request.markRead {
                // Marking writes, which rewrites the snapshot too: no second rewrite below.
                markRead(onTerminal ? screen?.shownMessageIDs ?? [] : printed?.messages.map(\.id) ?? [], of: answer.window, in: store)
            } else if !request.fromDatabase && !answer.isSnapshotFresh {
                writeSnapshot(of: answer, to: store, readProblem: snapshotProblem, outgrownLimit: outgrownLimit, busyTimeout: busyTimeout)
            }
            if !request.fromDatabase, !request.markRead, !request.follow {
                // So that the next `show` of a database that stays as it is opens nothing. A stamp
                // not written (a writer at work, files written within the clock's tick, a
                // network file system) costs the next `show` an open, as before: nothing to say.
                _ = try? store.stampUnchangedDatabase()
            }
            if request.follow, let baseline = answer.snapshot {
                var loop = FollowLoop(request: request, store: store, baseline: baseline, screen: screen, renderer: renderer,
                                      additions: additions, printed: printed, busyTimeout: busyTimeout)
                return loop.run()
            }
        } catch {
            return give(up: error, painted: painted, location: location, busyTimeout: busyTimeout)
        }
        emitNotices(onTerminal: onTerminal, location: location, now: now, columns: window?.columns)
        return ExitStatus.success
    }

    /// What a terminal is told once the timeline is shown: that it is empty, or how the sync goes.
    private func emitNotices(onTerminal: Bool, location: TimelineLocation, now: Date, columns: Int?) {
        if onTerminal, retained.answer?.window.messages.isEmpty == true {
            // A timeline with nothing in it yet: the first sync is on its way, or has not run.
            Terminal.emitError(SyncNotice.emptyTimeline(databasePath: location.databasePath, now: now))
        } else if onTerminal, let notice = SyncNotice.afterPaint(databasePath: location.databasePath, now: now, columns: columns) {
            Terminal.emitError(notice + "\n")
        }
    }

    /// `--sync-if-older AGE`: the shell hook's background sync (`BackgroundSyncStart`).
    private func startSyncIfDue(location: TimelineLocation, now: Date) {
        if let age = request.syncIfOlder {
            BackgroundSyncStart.startIfDue(databasePath: location.databasePath, olderThan: age, now: now)
        }
    }

    /// `show -f` on the first day, logged in but never synced: following is about to write (it
    /// syncs the accounts), so it creates the database as a sync would, empty, and follows it
    /// fill. Without an account there is nothing to follow, and nothing is created.
    private func createdForFollowing(_ location: TimelineLocation, busyTimeout: Int) -> TimelineStore? {
        guard let accounts = try? AccountStore.standard(), accounts.hasAccountsFile, (try? accounts.accounts().isEmpty) == false else { return nil }
        do {
            let store = try TimelineStore(path: location.databasePath, configuration: .init(
                createIfMissing: true, busyTimeout: .milliseconds(busyTimeout)))
            _ = try store.write { _ in () }
            return try TimelineStore(path: location.databasePath, configuration: .init(
                createIfMissing: false, busyTimeout: .milliseconds(busyTimeout), migrationSizeLimit: Self.migrationSizeLimit))
        } catch {
            Terminal.emitError("timeline: cannot create the database to follow your accounts into: \(error)\n")
            return nil
        }
    }

    /// 3. A new snapshot, when the one painted was stale or unusable: what was shown is right
    /// either way, so a snapshot that cannot be written is worth a note, never a failed shell start.
    /// A snapshot too small for `--limit` (`outgrownLimit`) grows as far as the library says
    /// (`TimelineSnapshot.grownLimit`), so the next `show -n` paints from it; that is said once.
    private func writeSnapshot(
        of answer: TimelineReconciliation, to store: TimelineStore, readProblem: SnapshotError?, outgrownLimit: Int?, busyTimeout: Int
    ) {
        var grownLimit: Int?
        if let old = outgrownLimit, let asked = request.limit, let grown = TimelineSnapshot.grownLimit(from: old, asked: asked) {
            grownLimit = grown
            var note = "timeline: the snapshot held \(Counted(old, "message")), fewer than the \(Counted.grouped(asked)) asked for; showing the database and keeping \(Counted.grouped(grown)) in the snapshot from now on"
            if asked > grown { note += " (`timeline snapshot --limit \(asked)` keeps more)" }
            Terminal.emitError(note + ".\n")
        } else if answer.changes == nil, !answer.window.messages.isEmpty, let problem = readProblem ?? answer.snapshotProblem {
            let why = if case .missing = problem { "there was no snapshot yet" } else { "the snapshot could not be used (\(problem))" }
            Terminal.emitError("timeline: \(why); showing the database and writing a new snapshot.\n")
        }
        do throws(TimelineStoreError) {
            try store.writeSnapshot(limit: grownLimit, lockTimeout: .milliseconds(busyTimeout), reusing: answer.snapshot)
        } catch {
            // `show` changed nothing, so the store's "the change was saved" wording would
            // mislead: only the snapshot is at stake.
            if case let .snapshotNotWritten(path, reason) = error {
                Terminal.emitError("timeline: could not write a new snapshot at \(path): \(reason)\n")
            } else {
                Terminal.emitError("timeline: \(error)\n")
            }
        }
    }

    /// `--unread`, `--author`, `--before`: one page of the database, printed once. The snapshot
    /// is neither read nor written: it holds the plain timeline. On a terminal, a note says how
    /// to read the next page back.
    private func showFiltered(location: TimelineLocation, renderer: TimelineRenderer, onTerminal: Bool, now: Date) -> Int32 {
        let busyTimeout = request.busyTimeout
        do throws(TimelineStoreError) {
            let store = try TimelineStore(path: location.databasePath, configuration: .init(
                createIfMissing: false, busyTimeout: .milliseconds(busyTimeout), migrationSizeLimit: Self.migrationSizeLimit))
            retained.store = store
            let limit = request.limit ?? ScreenBlock.entriesWithoutWindow
            let page = if let before = request.filter.beforeID {
                try store.withMessageReferences([before]) { ids throws(TimelineStoreError) in
                    var filter = request.filter
                    filter.beforeID = ids[0]
                    return try store.timeline(limit: limit, filter: filter)
                }
            } else {
                try store.timeline(limit: limit, filter: request.filter)
            }
            let printed = printOnce(page, with: renderer, now: now)
            if request.markRead { markRead(printed.messages.map(\.id), of: page, in: store) }
            if page.messages.isEmpty {
                Terminal.emitError("timeline: no messages \(request.filter.beforeID == nil ? "match" : "older than that one match").\n")
            } else if onTerminal, let last = page.nextCursor?.id {
                Terminal.emitError("timeline: older: timeline show --before \(TerminalText.line(last))\(filterArguments)\n")
            }
            return ExitStatus.success
        } catch {
            if case .unknownMessages = error {
                Terminal.emitError("timeline: --before: no message has the ID \(QuotedValue.quoted(request.filter.beforeID ?? "")).\n")
                return ExitStatus.dataError
            }
            return give(up: error, painted: false, location: location, busyTimeout: busyTimeout)
        }
    }

    /// `--mark-read`: the entries shown, and what the library counts as seen with them
    /// (`TimelineStore.markShownRead`). A failure is a note: what was shown stays shown.
    private func markRead(_ shown: [String], of page: TimelinePage, in store: TimelineStore) {
        do throws(TimelineStoreError) {
            try store.markShownRead(shown, of: page)
        } catch {
            Terminal.emitError("timeline: the messages shown were not marked read: \(error)\n")
        }
    }

    /// The filter's flags other than `--before`, to repeat in the note about the next page.
    private var filterArguments: String {
        var text = ""
        if request.filter.unreadOnly { text += " --unread" }
        if let author = request.filter.authorHandle { text += " --author \(TerminalText.line(author))" }
        return text
    }

    /// The largest database `show` upgrades by itself when a new timeline meets an older schema:
    /// 32 MiB is some 50,000 messages, well under a second. A larger one would hold a shell's
    /// start for seconds, so `show` keeps the paint and asks for `timeline upgrade` instead.
    static let migrationSizeLimit = 32 << 20

    /// `page` printed once, not on a terminal (or with `--json`): its first `--limit` messages,
    /// 20 without one. Returns what was printed.
    @discardableResult
    private func printOnce(_ page: TimelinePage, with renderer: TimelineRenderer, now: Date) -> TimelinePage {
        let shown = page.prefix(request.limit ?? ScreenBlock.entriesWithoutWindow)
        if request.json {
            Terminal.emit(JSONLinesShowOutput.lines(for: shown))
        } else if let template = request.template {
            Terminal.emit(template.text(for: shown))
        } else {
            Terminal.emit(TimelineRenderer.text(of: renderer.render(shown, now: now)))
        }
        return shown
    }

    /// Handles a database that cannot be used. After a paint, what is on the screen stays and a
    /// note says why it was not updated: `show` never turns a shell start into an error wall.
    private func give(up error: TimelineStoreError, painted: Bool, location: TimelineLocation, busyTimeout: Int) -> Int32 {
        let status = keepingPaint(error, painted: painted, location: location, busyTimeout: busyTimeout)
        // A follow that cannot follow failed, whatever was painted.
        return request.follow && status == ExitStatus.success ? exitStatus(for: error) : status
    }

    private func keepingPaint(_ error: TimelineStoreError, painted: Bool, location: TimelineLocation, busyTimeout: Int) -> Int32 {
        switch error {
        case .databaseMissing where painted:
            Terminal.emitError("timeline: showing the last snapshot; there is no database at \(location.databasePath).\n")
            return ExitStatus.success
        case .databaseMissing:
            Terminal.emitError(SyncNotice.emptyTimeline(databasePath: location.databasePath, now: Date()))
            return ExitStatus.success
        case .migrationNeeded:
            Terminal.emitError("timeline: \(painted ? "showing the last snapshot; " : "")the database needs a one-time upgrade to this version of timeline, which takes a while at its size: run `timeline upgrade`.\n")
            return painted ? ExitStatus.success : ExitStatus.busy
        case .busy where painted:
            Terminal.emitError("timeline: not updated: the database stayed locked for \(busyTimeout) ms (raise TIMELINE_BUSY_TIMEOUT_MS to wait longer).\n")
            return ExitStatus.success
        default:
            if painted {
                Terminal.emitError("timeline: not updated: \(error)\n")
                return ExitStatus.success
            }
            Terminal.emitError("timeline: \(error)\n")
            return exitStatus(for: error)
        }
    }
}
