import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

struct DoctorCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "doctor",
        abstract: "Check the database and the snapshot, and say what to do about anything wrong.",
        discussion: """
            Runs SQLite's integrity check (--quick: the faster quick_check), and reports the \
            schema version, the counts, the actions waiting to be sent to their servers (per \
            account), the snapshot's freshness, the sizes of the database, its WAL and the \
            snapshot, and free pages. It changes nothing: it opens the database \
            read-only and never creates one.

            Exit status: 0 healthy (advice may still be printed), 65 the database is damaged or \
            not a timeline database, 66 there is no database or it cannot be read, 78 it was \
            written by a newer timeline, 5 the snapshot cannot be read, 4 there is none, 3 it is \
            stale. With several problems, the database's come before the snapshot's.

            Examples:
              timeline doctor
              timeline doctor --json | jq .problems
            """)

    @OptionGroup var location: LocationOptions

    @Flag(name: .long, help: "Print one JSON object.")
    var json = false

    @Flag(name: .long, help: "Use SQLite's quick_check instead of integrity_check (skips index contents).")
    var quick = false

    func run() throws {
        let location = try location.location()
        let report = TimelineStore.checkHealth(
            path: location.databasePath, snapshotPath: location.snapshotPath, thorough: !quick)
        if json {
            Terminal.emit(Self.json(report) + "\n")
        } else {
            Terminal.emit(Self.text(report))
        }
        if let failure = report.problems.first(where: \.isFailure) {
            if !json {
                let count = report.problems.filter(\.isFailure).count
                Terminal.emitError("timeline: \(count == 1 ? "a problem" : "\(Counted(count, "problem"))") found; see above for what to do.\n")
            }
            throw ExitCode(Self.exitStatus(for: failure.kind))
        }
    }

    /// The exit status of the most serious problem (docs/user-guide.md, "Exit statuses", lists them).
    static func exitStatus(for kind: HealthProblem.Kind) -> Int32 {
        switch kind {
        case .notADatabase, .damaged, .countsDisagree: ExitStatus.dataError
        case .databaseMissing, .unreadable: ExitStatus.noInput
        case .newerSchema: ExitStatus.newerDatabase
        case .snapshotUnusable: ExitStatus.snapshotUnusable
        case .snapshotMissing: ExitStatus.snapshotMissing
        case .snapshotStale: ExitStatus.snapshotStale
        case .syncNeedsLogin: ExitStatus.noPermission
        case .notSyncing: ExitStatus.unavailable
        case .olderSchema, .manyFreePages, .largeWriteAheadLog: ExitStatus.success
        }
    }

    private static func text(_ report: HealthReport) -> String {
        // Paths, SQLite's integrity lines (which name tables and indexes a hostile file may have
        // named) and snapshot errors are shown as inert text.
        let safe = TerminalText.line
        var lines: [String] = []
        var database = "database    \(safe(report.databasePath)) (\(report.databaseBytes) bytes, WAL \(report.writeAheadLogBytes) bytes)"
        if let pageSize = report.pageSize, let pages = report.pageCount, let free = report.freePages {
            database += "\n            \(pages) pages of \(pageSize) bytes, \(free) free; auto_vacuum \(report.autoVacuum ?? "?")"
        }
        lines.append(database)
        if let version = report.schemaVersion {
            lines.append("schema      version \(version) (this timeline's: \(report.latestSchemaVersion))")
        }
        if !report.integrity.isEmpty {
            let check = report.thorough ? "integrity_check" : "quick_check"
            lines.append("integrity   \(check): " + report.integrity.prefix(10).map(safe).joined(separator: "\n            "))
        }
        if let state = report.state {
            lines.append("contents    \(Counted(state.messageCount, "message")) (\(Counted.grouped(state.unreadCount)) unread), \(Counted(state.userCount, "user")), generation \(state.generation)")
        }
        if let status = report.snapshotStatus {
            lines.append("snapshot    \(safe(report.snapshotPath)) (\(report.snapshotBytes) bytes): \(safe(status.description))")
        }
        if let last = report.lastMaintenance {
            lines.append("maintained  \(last.formatted(.iso8601))")
        }
        if let waiting = report.waitingActions, waiting.total > 0 {
            let each = waiting.byAccount.sorted { $0.key < $1.key }.map { "\(safe($0.key)) \($0.value)" }.joined(separator: ", ")
            lines.append("waiting     \(Counted(waiting.total, "action")) to send (\(each)); the next `timeline sync` sends them")
        }
        if report.problems.isEmpty {
            lines.append("\nHealthy.")
        } else {
            lines.append("")
            for problem in report.problems {
                lines.append("\(problem.isFailure ? "problem" : "advice"): \(safe(problem.description))")
            }
            if report.isHealthy { lines.append("Healthy.") }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func json(_ report: HealthReport) -> String {
        var object = JSONObjectWriter()
        object.add("healthy", report.isHealthy)
        object.add("database", report.databasePath)
        object.add("database_bytes", report.databaseBytes)
        object.add("wal_bytes", report.writeAheadLogBytes)
        object.add("snapshot", report.snapshotPath)
        object.add("snapshot_bytes", report.snapshotBytes)
        object.add("check", report.thorough ? "integrity_check" : "quick_check")
        object.add("integrity", report.integrity)
        object.add("schema_version", report.schemaVersion)
        object.add("latest_schema_version", report.latestSchemaVersion)
        object.add("page_size", report.pageSize)
        object.add("page_count", report.pageCount)
        object.add("free_pages", report.freePages)
        object.add("auto_vacuum", report.autoVacuum)
        object.add("messages", report.state?.messageCount)
        object.add("unread", report.state?.unreadCount)
        object.add("users", report.state?.userCount)
        object.add("generation", report.state.map { Int($0.generation) })
        object.add("snapshot_status", report.snapshotStatus.map(Self.statusName))
        object.add("snapshot_reason", report.snapshotStatus.map(\.description))
        object.add("last_maintenance", report.lastMaintenance.map { $0.formatted(.iso8601) })
        object.add("pending_actions", report.waitingActions?.total)
        object.add("pending_by_account", objects: (report.waitingActions?.byAccount ?? [:]).sorted { $0.key < $1.key }.map { account, count in
            var entry = JSONObjectWriter()
            entry.add("account", account)
            entry.add("count", count)
            return entry
        })
        object.add("problems", objects: report.problems.map { problem in
            var entry = JSONObjectWriter()
            entry.add("kind", problem.kind.rawValue)
            entry.add("failure", problem.isFailure)
            entry.add("detail", problem.detail)
            entry.add("remedy", problem.remedy)
            return entry
        })
        object.add("exit_status", Int(report.problems.first(where: \.isFailure).map { exitStatus(for: $0.kind) } ?? 0))
        return object.finish()
    }

    private static func statusName(_ status: SnapshotStatus) -> String {
        switch status {
        case .fresh: "fresh"
        case .stale: "stale"
        case .missing: "missing"
        case .unusable: "corrupt"
        }
    }
}
