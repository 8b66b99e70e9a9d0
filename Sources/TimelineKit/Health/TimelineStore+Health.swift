#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension TimelineStore {
    /// Checks the timeline at `path` without changing anything: it never creates a missing
    /// database, opens the database read-only, never migrates it and never rewrites the snapshot.
    /// Everything wrong is a `HealthProblem` in the report, with what to do; nothing throws, so a
    /// damaged file or one that is not a database is reported, not fatal.
    ///
    /// - Parameters:
    ///   - path: the database.
    ///   - snapshotPath: the snapshot; `nil` means beside the database.
    ///   - thorough: SQLite's `integrity_check` (reads every page and index) when `true`,
    ///     `quick_check` (skips index contents) when `false`.
    public static func checkHealth(path: String, snapshotPath: String? = nil, thorough: Bool = true) -> HealthReport {
        let snapshotFile = SnapshotFile(path: snapshotPath ?? SnapshotFile.path(forDatabaseAt: path))
        var report = HealthReport(
            databasePath: path, snapshotPath: snapshotFile.path, thorough: thorough, integrity: [],
            latestSchemaVersion: Migration.latestVersion,
            databaseBytes: FileSystem.size(at: path) ?? 0, writeAheadLogBytes: FileSystem.size(at: path + "-wal") ?? 0,
            snapshotBytes: FileSystem.size(at: snapshotFile.path) ?? 0, problems: [])
        HealthCheck.run(&report, snapshotFile: snapshotFile)
        // What the syncs last said, from the file they keep beside the database: a timeline whose
        // syncs stopped is not healthy however sound its file is.
        for attention in SyncStatusFile(databasePath: path).attention() {
            report.problems.append(HealthProblem(
                kind: attention.isCredentials ? .syncNeedsLogin : .notSyncing,
                detail: "Account \(attention.account): \(attention.explained).",
                remedy: attention.isCredentials ? "Log in again: \(attention.remedy)." : "Run `\(attention.remedy)` to see why."))
        }
        report.problems.sort { lhs, rhs in
            HealthProblem.Kind.allCases.firstIndex(of: lhs.kind)! < HealthProblem.Kind.allCases.firstIndex(of: rhs.kind)!
        }
        return report
    }

    /// `checkHealth(path:snapshotPath:thorough:)` for this store's files. It uses a connection of
    /// its own, read-only.
    public func checkHealth(thorough: Bool = true) -> HealthReport {
        Self.checkHealth(path: path, snapshotPath: snapshotFile.path, thorough: thorough)
    }
}

/// The steps of a health check, each filling in part of one report.
private enum HealthCheck {
    static func run(_ report: inout HealthReport, snapshotFile: SnapshotFile) {
        let path = report.databasePath
        switch FileSystem.kind(at: path) {
        case .missing:
            report.problems.append(HealthProblem(
                kind: .databaseMissing, detail: "There is no database at \(path).",
                remedy: "Check --db and TIMELINE_DB; `timeline import` or `timeline post` creates a new one."))
            return
        case .regularFile, .symbolicLink:
            break
        case let kind:
            report.problems.append(HealthProblem(
                kind: .notADatabase, detail: "\(path) is \(kind), not a database file.",
                remedy: "Point --db or TIMELINE_DB at the timeline database, or move it away."))
            return
        }
        // Whose file it is, first: another program's is reported without SQLite opening it in a
        // way that could leave a `-wal` or `-shm` beside it.
        let connection: SQLiteConnection
        do throws(TimelineStoreError) {
            switch try DatabaseIdentity.identify(path, busyTimeoutMilliseconds: 2000) {
            case .missing:
                report.problems.append(HealthProblem(
                    kind: .databaseMissing, detail: "There is no database at \(path).",
                    remedy: "Check --db and TIMELINE_DB; `timeline import` or `timeline post` creates a new one."))
                return
            case .empty:
                // As for every other command: an empty file is no timeline yet.
                report.problems.append(HealthProblem(
                    kind: .databaseMissing, detail: "There is no timeline in \(path) yet: the file is empty.",
                    remedy: "`timeline import` or `timeline post` creates the timeline in it."))
                return
            case let .foreign(reason):
                report.problems.append(HealthProblem(
                    kind: .notADatabase, detail: "\(path) is not a timeline database: \(reason).",
                    remedy: "Point --db or TIMELINE_DB at the timeline database, or move the file away."))
                return
            case .timeline:
                connection = try ReadingConnection.open(path, mode: .readOnly, busyTimeoutMilliseconds: 2000).connection
            }
        } catch {
            report.problems.append(problem(for: error, path: path))
            return
        }
        // Each step reports what it finds; a damaged page fails only the steps that read it.
        do throws(SQLiteError) {
            report.schemaVersion = try SchemaMigrator.version(of: connection)
            report.pageSize = try connection.integer("PRAGMA page_size")
            report.pageCount = try connection.integer("PRAGMA page_count")
            report.freePages = try connection.integer("PRAGMA freelist_count")
            report.autoVacuum = try connection.integer("PRAGMA auto_vacuum").map { ["none", "full", "incremental"][min(max($0, 0), 2)] }
        } catch {
            report.problems.append(problem(for: error, path: path))
            return
        }
        checkIntegrity(&report, connection)
        guard let version = report.schemaVersion else { return }
        if version > Migration.latestVersion {
            report.problems.append(HealthProblem(
                kind: .newerSchema,
                detail: "\(path) has schema version \(version); this timeline knows versions up to \(Migration.latestVersion).",
                remedy: "It was written by a newer timeline: upgrade timeline. The file is fine as it is."))
            return
        }
        if version == 0 {
            if (try? connection.integer("SELECT count(*) FROM sqlite_master WHERE type = 'table'")) ?? 0 > 0 {
                report.problems.append(HealthProblem(
                    kind: .notADatabase, detail: "\(path) is an SQLite database with tables of another program.",
                    remedy: "Point --db or TIMELINE_DB at the timeline database."))
            } else {
                report.problems.append(HealthProblem(
                    kind: .olderSchema, detail: "\(path) holds no timeline tables yet.",
                    remedy: "The next `timeline import` or `timeline post` creates them."))
            }
            return
        }
        if version < Migration.latestVersion {
            report.problems.append(HealthProblem(
                kind: .olderSchema,
                detail: "\(path) has schema version \(version); this timeline's is \(Migration.latestVersion).",
                remedy: "The next write command (or `timeline snapshot`) migrates it; an older timeline cannot read it after that."))
        }
        checkContents(&report, connection, version: version)
        checkSnapshot(&report, snapshotFile: snapshotFile)
        adviseOnSpace(&report)
    }

    private static func checkIntegrity(_ report: inout HealthReport, _ connection: SQLiteConnection) {
        // At most 100 lines: enough to say what is damaged, and a badly damaged file has thousands.
        let pragma = report.thorough ? "PRAGMA integrity_check(100)" : "PRAGMA quick_check(100)"
        do throws(SQLiteError) {
            let statement = try connection.statement(pragma)
            defer { statement.reset() }
            while try statement.step() { report.integrity.append(statement.text(at: 0)) }
        } catch {
            report.integrity.append(error.message)
        }
        if report.integrity != ["ok"] {
            report.problems.append(damaged(report.databasePath, what: report.integrity.first ?? "the check failed"))
        }
    }

    /// The counts kept by triggers against the tables, when the upkeep last ran, and what waits
    /// to be sent.
    private static func checkContents(_ report: inout HealthReport, _ connection: SQLiteConnection, version: Int) {
        do throws(SQLiteError) {
            try connection.execute("BEGIN")
            defer { try? connection.execute("COMMIT") }
            let state = try TimelineReader(connection: connection).state()
            report.state = state
            let messages = try connection.integer("SELECT count(*) FROM messages") ?? 0
            let unread = try connection.integer(MaintenanceStatements.countUnread) ?? 0
            let users = try connection.integer("SELECT count(*) FROM users") ?? 0
            if (messages, unread, users) != (state.messageCount, state.unreadCount, state.userCount) {
                report.problems.append(HealthProblem(
                    kind: .countsDisagree,
                    detail: "The counts in timeline_state (\(Counted(state.messageCount, "message")), \(Counted.grouped(state.unreadCount)) unread, \(Counted(state.userCount, "user"))) disagree with the tables (\(messages), \(unread), \(users)): something changed the database with its triggers off.",
                    remedy: "Rebuild it: `timeline export all.jsonl`, then `timeline --db NEW.sqlite import all.jsonl` and use NEW.sqlite."))
            }
            if version >= 2 { report.lastMaintenance = try TimelineStore.lastMaintenance(on: connection) }
            report.waitingActions = try TimelineReader(connection: connection).waitingActions()
        } catch {
            // The integrity check has already said so when this is damage.
            if report.isHealthy { report.problems.append(problem(for: error, path: report.databasePath)) }
        }
    }

    private static func checkSnapshot(_ report: inout HealthReport, snapshotFile: SnapshotFile) {
        guard let state = report.state else { return }
        let status: SnapshotStatus
        do throws(SnapshotError) {
            status = SnapshotStatus(header: try snapshotFile.readHeader(), state: state)
        } catch {
            if case .missing = error { status = .missing } else { status = .unusable(error) }
        }
        report.snapshotStatus = status
        let rebuild = "Run `timeline snapshot` to rebuild it (any write command also does)."
        switch status {
        case .fresh:
            break
        case .stale:
            report.problems.append(HealthProblem(
                kind: .snapshotStale, detail: "The snapshot \(snapshotFile.path) is \(status).",
                remedy: "`timeline show` still shows the database's messages, after a moment. " + rebuild))
        case .missing:
            report.problems.append(HealthProblem(
                kind: .snapshotMissing, detail: "There is no snapshot at \(snapshotFile.path).", remedy: rebuild))
        case let .unusable(error):
            report.problems.append(HealthProblem(
                kind: .snapshotUnusable, detail: "The snapshot \(snapshotFile.path) cannot be used: \(error)", remedy: ""))
        }
    }

    private static func adviseOnSpace(_ report: inout HealthReport) {
        if let pages = report.pageCount, let free = report.freePages, let size = report.pageSize,
           free * 4 >= pages, free * size >= 1 << 20 {
            report.problems.append(HealthProblem(
                kind: .manyFreePages,
                detail: "\(free) of the database's \(pages) pages (\(free * size) bytes) are free.",
                remedy: "`timeline vacuum` gives them back to the file system."))
        }
        let limit = MaintenancePolicy().walSizeLimit
        if report.writeAheadLogBytes > limit {
            report.problems.append(HealthProblem(
                kind: .largeWriteAheadLog,
                detail: "The WAL \(report.databasePath)-wal is \(report.writeAheadLogBytes) bytes (the store keeps it under \(limit) when it can).",
                remedy: "A long-running reader kept it from being reset; the next write truncates it, or run `timeline vacuum`."))
        }
    }

    private static func problem(for error: SQLiteError, path: String) -> HealthProblem {
        switch error.code.primary {
        case .notADatabase:
            HealthProblem(kind: .notADatabase, detail: "\(path) is not an SQLite database (\(error.message)).",
                          remedy: "Point --db or TIMELINE_DB at the timeline database, or move the file away.")
        case .corrupt:
            damaged(path, what: error.message)
        case .busy, .locked:
            HealthProblem(kind: .unreadable, detail: "\(path) stayed locked by another process.",
                          remedy: "Try again when the other program has finished.")
        default:
            unreadable(path, error)
        }
    }

    private static func problem(for error: TimelineStoreError, path: String) -> HealthProblem {
        switch error {
        case let .sqlite(error):
            problem(for: error, path: path)
        case let .notATimelineDatabase(_, reason):
            HealthProblem(kind: .notADatabase, detail: "\(path) is not a timeline database: \(reason).",
                          remedy: "Point --db or TIMELINE_DB at the timeline database, or move the file away.")
        case .busy:
            HealthProblem(kind: .unreadable, detail: "\(path) stayed locked by another process.",
                          remedy: "Try again when the other program has finished.")
        default:
            HealthProblem(kind: .unreadable, detail: "\(error)",
                          remedy: "Check the file's permissions and that its directory is readable.")
        }
    }

    private static func unreadable(_ path: String, _ error: SQLiteError) -> HealthProblem {
        HealthProblem(kind: .unreadable, detail: "Cannot read \(path): \(error.message).",
                      remedy: "Check the file's permissions and that its directory is readable.")
    }

    private static func damaged(_ path: String, what: String) -> HealthProblem {
        HealthProblem(
            kind: .damaged, detail: "The database \(path) is damaged: \(what).",
            remedy: "Keep a copy of the file; restore a backup, or rescue what is readable with `sqlite3 \(path) .recover | sqlite3 rescued.sqlite`, or export what `timeline export` can still read.")
    }
}
