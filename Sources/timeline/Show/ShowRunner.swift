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
        var snapshot: TimelineSnapshot?
        var paint: [RenderedEntry] = []
        var store: TimelineStore?
        var current: TimelinePage?
        var changes: TimelineChanges?
    }

    let retained = Retained()

    /// What is on the screen after the first paint.
    struct Paint {
        let entries: [RenderedEntry]
        var lineCount: Int { TimelineRenderer.rowCount(of: entries) }
    }

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
        let onTerminal = !request.json && Terminal.standardOutputIsTerminal
        let window = onTerminal ? Terminal.windowSize() : nil
        let renderer = TimelineRenderer(options: RenderOptions(
            width: request.width ?? window?.columns ?? 80, color: useColor(onTerminal: onTerminal)))
        let now = Date()
        let busyTimeout = request.busyTimeoutMilliseconds
            ?? Terminal.environment("TIMELINE_BUSY_TIMEOUT_MS").flatMap { Int($0) }
            ?? ShowRequest.defaultBusyTimeoutMilliseconds

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
                let shown = request.limit ?? (onTerminal ? window.map { $0.rows / 2 + 1 } : nil) ?? ShowRunner.entriesWithoutTerminal
                let candidate = try SnapshotFile(path: location.snapshotPath).readPreview(messages: shown)
                // A snapshot answers only when it holds as many messages as were asked for.
                if let limit = request.limit, limit > candidate.windowMessageCount, candidate.head.nextCursor != nil {
                    preview = nil
                    outgrownLimit = candidate.limit
                } else {
                    preview = candidate
                }
            } catch {
                snapshotProblem = error
            }
        }
        retained.preview = preview
        var paint: Paint?
        if onTerminal, let preview {
            paint = draw(preview.head, with: renderer, now: now, rows: window?.rows)
            retained.paint = paint?.entries ?? []
        }
        if !request.reconcile, let preview {
            if paint == nil { printOnce(preview.head, with: renderer, now: now) }
            return ExitStatus.success
        }

        // 2. Reconcile with the database, waiting at most `busyTimeout` for a lock.
        let store: TimelineStore
        do throws(TimelineStoreError) {
            store = try TimelineStore(path: location.databasePath, configuration: .init(
                createIfMissing: false, busyTimeout: .milliseconds(busyTimeout),
                migrationSizeLimit: Self.migrationSizeLimit))
        } catch {
            return give(up: error, painted: paint != nil, location: location, busyTimeout: busyTimeout)
        }
        retained.store = store
        do throws(TimelineStoreError) {
            // On a pipe, `--follow` prints every message stored after this, taken before the
            // window is read so that nothing stored in between is missed (see FollowLoop).
            let additions = request.follow && !onTerminal ? try store.additionCursor() : nil
            let current: TimelinePage
            var changes: TimelineChanges?
            // Fresh means the same database and generation: a snapshot of another database that
            // happens to look the same is rewritten too.
            var fresh = false
            var snapshot: TimelineSnapshot?
            // What `--follow` measures later changes against: the window and state shown now.
            var followBaseline: TimelineSnapshot?
            if let preview, !request.follow, preview.isFresh(for: try store.state()) {
                // Nothing changed: the paint is the truth, and the rest of the window, which only
                // a comparison needs, is never decoded.
                current = preview.head
                fresh = true
            } else if let preview, let completed = complete(preview, problem: &snapshotProblem) {
                snapshot = completed
                retained.snapshot = completed
                let found = try store.reconcile(completed)
                changes = found
                current = found.window
                fresh = completed.isFresh(for: found.state)
                if request.follow {
                    followBaseline = TimelineSnapshot(state: found.state, builtAt: now, limit: completed.limit, window: found.window)
                }
            } else if request.follow {
                // State and window from one read transaction, so no commit falls between them.
                let made = try store.makeSnapshot(limit: max(request.limit ?? 0, TimelineSnapshot.defaultLimit))
                current = made.window
                followBaseline = made
            } else {
                current = try store.timeline(limit: max(request.limit ?? 0, TimelineSnapshot.defaultLimit))
            }
            retained.current = current
            retained.changes = changes

            // The block on the screen with the cursor right below it, for `--follow`.
            var onScreen: Paint?
            if onTerminal {
                if let paint {
                    onScreen = paint
                    if !fresh, changes?.isEmpty != true {
                        onScreen = update(paint, to: current, changes: changes, with: renderer, now: now, rows: window?.rows)
                    }
                } else {
                    onScreen = draw(current, with: renderer, now: now, rows: window?.rows)
                }
            } else {
                printOnce(current, with: renderer, now: now)
            }

            if !request.fromDatabase {
                // A snapshot too small for `--limit` grows to it (up to a bound), so the next
                // `show -n` paints from it, and says so once; past its bound it stays quiet.
                var grownLimit: Int?
                if let old = outgrownLimit, let asked = request.limit, min(asked, Self.largestGrownSnapshot) > old {
                    let grown = min(asked, Self.largestGrownSnapshot)
                    grownLimit = grown
                    var note = "timeline: the snapshot held \(Counted(old, "message")), fewer than the \(Counted.grouped(asked)) asked for; showing the database and keeping \(Counted.grouped(grown)) in the snapshot from now on"
                    if asked > grown { note += " (`timeline snapshot --limit \(asked)` keeps more)" }
                    Terminal.emitError(note + ".\n")
                } else if snapshot == nil && !fresh, let problem = snapshotProblem {
                    let why = if case .missing = problem { "there was no snapshot yet" } else { "the snapshot could not be used (\(problem))" }
                    Terminal.emitError("timeline: \(why); showing the database and writing a new snapshot.\n")
                }
                if !fresh {
                    // What was shown is right either way; a snapshot that cannot be written is
                    // worth a note, never a failed shell start.
                    do throws(TimelineStoreError) {
                        try store.writeSnapshot(limit: grownLimit, lockTimeout: .milliseconds(busyTimeout))
                    } catch {
                        // `show` changed nothing, so the store's "the change was saved" wording
                        // would mislead: only the snapshot is at stake.
                        if case let .snapshotNotWritten(path, reason) = error {
                            Terminal.emitError("timeline: could not write a new snapshot at \(path): \(reason)\n")
                        } else {
                            Terminal.emitError("timeline: \(error)\n")
                        }
                    }
                }
            }
            if let followBaseline {
                var loop = FollowLoop(runner: self, store: store, baseline: followBaseline, additions: additions, onTerminal: onTerminal,
                                      renderer: renderer, rows: window?.rows, block: onScreen?.entries,
                                      busyTimeout: busyTimeout)
                return loop.run()
            }
        } catch {
            return give(up: error, painted: paint != nil, location: location, busyTimeout: busyTimeout)
        }
        return ExitStatus.success
    }

    /// The whole snapshot behind a preview, or nil when a part the preview stepped over does not
    /// decode (only a file crafted to pass the checksums gets that far): then it is a snapshot
    /// not to use, like any other bad one.
    private func complete(_ preview: SnapshotPreview, problem: inout SnapshotError?) -> TimelineSnapshot? {
        do throws(SnapshotError) {
            return try preview.complete()
        } catch {
            problem = error
            return nil
        }
    }

    private func useColor(onTerminal: Bool) -> Bool {
        request.color.usesColor(onTerminal: onTerminal)
    }

    /// The most messages a snapshot grows to by itself for `show -n`: every write rewrites the
    /// snapshot, and 1,000 messages keep that rewrite small. `timeline snapshot --limit` sets more.
    static let largestGrownSnapshot = 1_000

    /// The largest database `show` upgrades by itself when a new timeline meets an older schema:
    /// 32 MiB is some 50,000 messages, well under a second. A larger one would hold a shell's
    /// start for seconds, so `show` keeps the paint and asks for `timeline upgrade` instead.
    static let migrationSizeLimit = 32 << 20

    /// How many messages are shown off a terminal without `--limit`.
    static let entriesWithoutTerminal = 20

    /// The entries to show: `--limit` of them, or as many as fit the window without scrolling.
    func entries(of page: TimelinePage, with renderer: TimelineRenderer, now: Date, rows: Int?) -> [RenderedEntry] {
        if let limit = request.limit {
            return renderer.render(page.prefix(limit), now: now)
        }
        guard let rows else { return renderer.render(page.prefix(Self.entriesWithoutTerminal), now: now) }
        // One row stays free for the prompt.
        return renderer.render(page, now: now, fittingRows: rows - 1)
    }

    private func draw(_ page: TimelinePage, with renderer: TimelineRenderer, now: Date, rows: Int?) -> Paint {
        let shown = entries(of: page, with: renderer, now: now, rows: rows)
        Terminal.emit(text(of: shown))
        return Paint(entries: shown)
    }

    private func printOnce(_ page: TimelinePage, with renderer: TimelineRenderer, now: Date) {
        if request.json {
            Terminal.emit(JSONLinesShowOutput.lines(for: page.prefix(request.limit ?? Self.entriesWithoutTerminal)))
        } else {
            Terminal.emit(text(of: entries(of: page, with: renderer, now: now, rows: nil)))
        }
    }

    /// Rewrites the painted block in place when all of it is still on the screen; otherwise
    /// prints the new messages below, with one line summing up edits and removals. Returns the
    /// block now on the screen when it was repainted, `nil` when the changes went below it.
    @discardableResult
    private func update(_ paint: Paint, to page: TimelinePage, changes: TimelineChanges?,
                        with renderer: TimelineRenderer, now: Date, rows: Int?) -> Paint? {
        let lines = paint.lineCount
        if ScreenBlock.canRepaint(lines: lines, rows: rows, width: renderer.options.width, columns: Terminal.windowSize()?.columns) {
            let shown = entries(of: page, with: renderer, now: now, rows: rows)
            Terminal.emit(ScreenBlock.rewind(over: lines) + text(of: shown))
            return Paint(entries: shown)
        }
        // Without changes (the painted snapshot turned out unusable) everything is new.
        guard let changes else {
            Terminal.emit("\n" + text(of: entries(of: page, with: renderer, now: now, rows: nil)))
            return nil
        }
        var output = "\n" + text(of: renderer.render(changes.insertedPage, now: now))
        var summary: [String] = []
        if !changes.updated.isEmpty { summary.append("\(changes.updated.count) edited") }
        if !changes.removed.isEmpty { summary.append("\(changes.removed.count) removed") }
        if !summary.isEmpty { output += "(" + summary.joined(separator: ", ") + " above)\n" }
        Terminal.emit(output)
        return nil
    }

    private func text(of entries: [RenderedEntry]) -> String {
        TimelineRenderer.text(of: entries)
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
            Terminal.emitError("""
                timeline: no timeline yet at \(location.databasePath).
                Add messages with `timeline import FILE` (JSON Lines, see the README) or `timeline post --as HANDLE TEXT`.

                """)
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
