#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
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
        var snapshot: TimelineSnapshot?
        var paint: [RenderedEntry] = []
        var store: TimelineStore?
        var current: TimelinePage?
        var changes: TimelineChanges?
    }

    let retained = Retained()

    /// What is on the screen after the first paint.
    private struct Paint {
        let entries: [RenderedEntry]
        var lineCount: Int { TimelineRenderer.rowCount(of: entries) }
    }

    func run() -> Int32 {
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

        // 1. The first paint, from the snapshot alone: the database is not opened yet.
        var snapshot: TimelineSnapshot?
        var snapshotProblem: SnapshotError?
        if !request.fromDatabase {
            do throws(SnapshotError) {
                let candidate = try SnapshotFile(path: location.snapshotPath).read()
                // A snapshot answers only when it holds as many messages as were asked for.
                if let limit = request.limit, limit > candidate.window.messages.count, candidate.window.nextCursor != nil {
                    snapshot = nil
                } else {
                    snapshot = candidate
                }
            } catch {
                snapshotProblem = error
            }
        }
        retained.snapshot = snapshot
        var paint: Paint?
        if onTerminal, let snapshot {
            paint = draw(snapshot.window, with: renderer, now: now, rows: window?.rows)
            retained.paint = paint?.entries ?? []
        }
        if !request.reconcile, let snapshot {
            if paint == nil { printOnce(snapshot.window, with: renderer, now: now) }
            return ExitStatus.success
        }

        // 2. Reconcile with the database, waiting at most `busyTimeout` for a lock.
        let store: TimelineStore
        do throws(TimelineStoreError) {
            store = try TimelineStore(path: location.databasePath, configuration: .init(
                createIfMissing: false, busyTimeout: .milliseconds(busyTimeout)))
        } catch {
            return give(up: error, painted: paint != nil, location: location, busyTimeout: busyTimeout)
        }
        retained.store = store
        do throws(TimelineStoreError) {
            let current: TimelinePage
            var changes: TimelineChanges?
            if let snapshot {
                let found = try store.reconcile(snapshot)
                changes = found
                current = found.window
            } else {
                current = try store.timeline(limit: max(request.limit ?? 0, TimelineSnapshot.defaultLimit))
            }
            retained.current = current
            retained.changes = changes

            if onTerminal {
                if let paint {
                    if let changes, !changes.isEmpty {
                        update(paint, to: current, changes: changes, with: renderer, now: now, rows: window?.rows)
                    }
                } else {
                    _ = draw(current, with: renderer, now: now, rows: window?.rows)
                }
            } else {
                printOnce(current, with: renderer, now: now)
            }

            if !request.fromDatabase {
                if snapshot == nil {
                    let why = snapshotProblem.map { error -> String in
                        if case .missing = error { return "there was no snapshot yet" }
                        return "the snapshot could not be used (\(error))"
                    } ?? "the snapshot held fewer messages than asked for"
                    Terminal.emitError("timeline: \(why); showing the database and writing a new snapshot.\n")
                }
                // Fresh means the same database and generation: a snapshot of another database
                // that happens to look the same is rewritten too.
                let fresh = snapshot.flatMap { painted in changes.map { painted.isFresh(for: $0.state) } } ?? false
                if !fresh {
                    // What was shown is right either way; a snapshot that cannot be written is
                    // worth a note, never a failed shell start.
                    do throws(TimelineStoreError) {
                        try store.writeSnapshot(lockTimeout: .milliseconds(busyTimeout))
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
        } catch {
            return give(up: error, painted: paint != nil, location: location, busyTimeout: busyTimeout)
        }
        return ExitStatus.success
    }

    private func useColor(onTerminal: Bool) -> Bool {
        request.color.usesColor(onTerminal: onTerminal)
    }

    /// The entries to show: `--limit` of them, or as many as fit the window without scrolling.
    private func entries(of page: TimelinePage, with renderer: TimelineRenderer, now: Date, rows: Int?) -> [RenderedEntry] {
        if let limit = request.limit {
            return renderer.render(page.prefix(limit), now: now)
        }
        guard let rows else { return renderer.render(page.prefix(20), now: now) }
        // Every entry takes at least two rows with its separator, so `rows / 2` of them are always
        // enough; one row stays free for the prompt.
        let candidates = renderer.render(page.prefix(max(1, rows / 2)), now: now)
        var shown: [RenderedEntry] = []
        for entry in candidates {
            if !shown.isEmpty && TimelineRenderer.rowCount(of: shown + [entry]) > rows - 1 { break }
            shown.append(entry)
        }
        return shown
    }

    private func draw(_ page: TimelinePage, with renderer: TimelineRenderer, now: Date, rows: Int?) -> Paint {
        let shown = entries(of: page, with: renderer, now: now, rows: rows)
        Terminal.emit(text(of: shown))
        return Paint(entries: shown)
    }

    private func printOnce(_ page: TimelinePage, with renderer: TimelineRenderer, now: Date) {
        if request.json {
            Terminal.emit(JSONLinesShowOutput.lines(for: page.prefix(request.limit ?? 20)))
        } else {
            Terminal.emit(text(of: entries(of: page, with: renderer, now: now, rows: nil)))
        }
    }

    /// Rewrites the painted block in place when all of it is still on the screen; otherwise
    /// prints the new messages below, with one line summing up edits and removals.
    private func update(_ paint: Paint, to page: TimelinePage, changes: TimelineChanges,
                        with renderer: TimelineRenderer, now: Date, rows: Int?) {
        let lines = paint.lineCount
        // Only a block whose every line is still on the screen, one screen row each, can be
        // repainted in place: lines wider than the window would have wrapped onto more rows.
        // A dumb terminal has no cursor movement at all.
        let columns = Terminal.windowSize()?.columns ?? Int.max
        let canMoveCursor = Terminal.environment("TERM") != "dumb"
        if let rows, lines < rows, renderer.options.width <= columns, canMoveCursor {
            // Up to the block's first line, erase from there down, paint again.
            let shown = entries(of: page, with: renderer, now: now, rows: rows)
            Terminal.emit("\r" + (lines > 0 ? "\u{1b}[\(lines)A" : "") + "\u{1b}[J" + text(of: shown))
            return
        }
        let inserted = Set(changes.inserted)
        let fresh = TimelinePage(messages: page.messages.filter { inserted.contains($0.id) },
                                 related: page.related, users: page.users)
        var output = "\n" + text(of: renderer.render(fresh, now: now))
        var summary: [String] = []
        if !changes.updated.isEmpty { summary.append("\(changes.updated.count) edited") }
        if !changes.removed.isEmpty { summary.append("\(changes.removed.count) removed") }
        if !summary.isEmpty { output += "(" + summary.joined(separator: ", ") + " above)\n" }
        Terminal.emit(output)
    }

    private func text(of entries: [RenderedEntry]) -> String {
        TimelineRenderer.text(of: entries)
    }

    /// Handles a database that cannot be used. After a paint, what is on the screen stays and a
    /// note says why it was not updated: `show` never turns a shell start into an error wall.
    private func give(up error: TimelineStoreError, painted: Bool, location: TimelineLocation, busyTimeout: Int) -> Int32 {
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
