import ArgumentParser
import TimelineKit

struct VacuumCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "vacuum",
        abstract: "Rewrite the database without its free space, and empty the WAL.",
        discussion: """
            Runs SQLite's VACUUM (switching an older database to incremental auto-vacuum, so that \
            later prunes give space back by themselves), PRAGMA optimize, and a checkpoint that \
            truncates the WAL. It needs free disk space the size of the database and takes as \
            long as copying it; `show` keeps working meanwhile. The timeline does a lighter \
            upkeep by itself once a week; run this after removing much by other means, or when \
            `timeline doctor` advises it.

            Example:
              timeline vacuum
            """)

    @OptionGroup var location: LocationOptions

    func run() throws {
        let store = try location.openStore(create: false)
        let summary = try reportingErrors { try store.vacuum() }
        var line = "Vacuumed \(store.path): \(PruneCommand.megabytes(summary.bytesBefore)) → \(PruneCommand.megabytes(summary.bytesAfter)) (database and WAL)."
        if !summary.walTruncated { line += " Another process was reading, so the WAL was not emptied; the next write does it." }
        Terminal.emit(line + "\n")
    }
}
