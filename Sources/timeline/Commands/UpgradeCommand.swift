import ArgumentParser
import TimelineKit

struct UpgradeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upgrade",
        abstract: "Bring the database to this version of timeline's schema.",
        discussion: """
            A new timeline upgrades a database's schema the first time it writes to it. `show` \
            does so only for small databases (up to 32 MiB): a large one takes about ten seconds \
            a million messages, too long for a shell's start, so `show` keeps showing the last \
            snapshot and asks for this command. Nothing is lost; the upgrade is one transaction.

            Example:
              timeline upgrade
            """)

    @OptionGroup var location: LocationOptions

    func run() throws {
        let path = try location.location().databasePath
        let before = try reportingErrors { try TimelineStore.schemaVersion(ofDatabaseAt: path) }
        let started = ContinuousClock.now
        let store = try location.openStore(create: false)
        let latest = TimelineStore.latestSchemaVersion
        if before >= latest {
            Terminal.emit("\(store.path) is up to date (schema version \(latest)).\n")
            return
        }
        // Writing the snapshot anew: the upgrade changed no message, but a snapshot written by
        // the older timeline may be of an older format.
        _ = try reportingErrors { try store.writeSnapshot() }
        let elapsed = (ContinuousClock.now - started).components
        let tenths = Int(elapsed.seconds) * 10 + Int(elapsed.attoseconds / 100_000_000_000_000_000)
        Terminal.emit("Upgraded \(store.path) from schema version \(before) to \(latest) in \(tenths / 10).\(tenths % 10) s.\n")
    }
}
