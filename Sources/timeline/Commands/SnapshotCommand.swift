import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

struct SnapshotCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "snapshot",
        abstract: "Rebuild the snapshot that `show` paints from, check it, or print it.",
        discussion: """
            With no flag, rebuilds the snapshot from the database. Write commands keep it fresh by \
            themselves; run this after changing the database some other way, or to change how many \
            messages it holds (the limit lasts for later writes).

            --check exits 0 when the snapshot is fresh, 3 when stale, 4 when missing, 5 when it \
            cannot be read, and says why on standard error.

            Examples:
              timeline snapshot --limit 500
              timeline snapshot --check && echo fresh
              timeline snapshot --dump | jq .snapshot.state.message_count
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: "How many of the newest messages the snapshot holds (default: its current limit, else 200).")
    var limit: Int?

    @Flag(name: .long, help: "Only say whether the snapshot is fresh; change nothing.")
    var check = false

    @Flag(name: .long, help: "Print the snapshot's contents as JSON (snake_case keys).")
    var dump = false

    func validate() throws {
        if check && dump { throw ValidationError("--check and --dump cannot be used together.") }
        if let limit, !(1 ... TimelineSnapshot.maximumLimit).contains(limit) {
            throw ValidationError("--limit must be from 1 to \(TimelineSnapshot.maximumLimit), not \(limit).")
        }
        if limit != nil && (check || dump) { throw ValidationError("--limit only applies when rebuilding the snapshot.") }
    }

    func run() throws {
        if dump { return try runDump() }
        let store = try location.openStore(create: false)
        if check { return try runCheck(store) }
        let outcome = try reportingErrors { try store.writeSnapshot(limit: limit, force: true) }
        let snapshot = try reportingErrors { try store.snapshotFile.read() }
        Terminal.emit("Wrote \(store.snapshotFile.path): \(Counted(snapshot.window.messages.count, "message")), generation \(snapshot.generation).\n")
        _ = outcome
    }

    private func runCheck(_ store: TimelineStore) throws {
        let status = try reportingErrors { try store.snapshotStatus() }
        switch status {
        case .fresh:
            Terminal.emit("\(store.snapshotFile.path): \(status)\n")
        case .stale:
            Terminal.emitError("\(store.snapshotFile.path): \(status). Run `timeline snapshot` to rebuild it.\n")
            throw ExitCode(ExitStatus.snapshotStale)
        case .missing:
            Terminal.emitError("\(store.snapshotFile.path): missing. Run `timeline snapshot` to build it.\n")
            throw ExitCode(ExitStatus.snapshotMissing)
        case let .unusable(error):
            Terminal.emitError("\(error)\n")
            throw ExitCode(ExitStatus.snapshotUnusable)
        }
    }

    private func runDump() throws {
        let file = SnapshotFile(path: try location.location().snapshotPath)
        let snapshot = try reportingErrors { try file.read() }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        // snake_case like every other JSON timeline prints (`show --json`, `stats --json`).
        encoder.keyEncodingStrategy = .convertToSnakeCase
        let json = try reportingErrors { try encoder.encode(SnapshotDump(path: file.path, snapshot: snapshot)) }
        Terminal.emit(String(decoding: json, as: UTF8.self) + "\n")
    }
}

/// What `snapshot --dump` prints: the file's format version and the snapshot itself.
private struct SnapshotDump: Encodable {
    let path: String
    let formatVersion = TimelineSnapshot.formatVersion
    let snapshot: TimelineSnapshot
}
