import ArgumentParser
import TimelineKit

struct StatsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "stats",
        abstract: "Counts, file sizes, generation and snapshot freshness.",
        discussion: """
            The JSON has at least messages, users, unread, generation and snapshot_fresh.

            Example:
              timeline stats --json | jq .unread
            """)

    @OptionGroup var location: LocationOptions

    @Flag(name: .long, help: "Print one JSON object.")
    var json = false

    func run() throws {
        let store = try location.openStore(create: false)
        let state = try reportingErrors { try store.state() }
        let status = try reportingErrors { try store.snapshotStatus() }
        let usage = store.diskUsage()
        let (databaseBytes, walBytes, snapshotBytes) = (usage.database, usage.writeAheadLog, usage.snapshot)
        if json {
            var object = JSONObjectWriter()
            object.add("messages", state.messageCount)
            object.add("users", state.userCount)
            object.add("unread", state.unreadCount)
            object.add("generation", Int(state.generation))
            object.add("snapshot_fresh", status.isFresh)
            object.add("snapshot_status", "\(status)")
            object.add("database", store.path)
            object.add("database_bytes", databaseBytes)
            object.add("wal_bytes", walBytes)
            object.add("snapshot", store.snapshotFile.path)
            object.add("snapshot_bytes", snapshotBytes)
            Terminal.emit(object.finish() + "\n")
        } else {
            Terminal.emit("""
                messages    \(state.messageCount) (\(state.unreadCount) unread)
                users       \(state.userCount)
                generation  \(state.generation)
                database    \(store.path) (\(databaseBytes) bytes, WAL \(walBytes) bytes)
                snapshot    \(store.snapshotFile.path) (\(snapshotBytes) bytes): \(status)

                """)
        }
    }
}
