import ArgumentParser
import TimelineKit

/// `--db`, shared by every command.
struct LocationOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The database file.",
        discussion: "Default: $TIMELINE_DB, else $XDG_DATA_HOME/timeline/timeline.sqlite, else ~/.local/share/timeline/timeline.sqlite. The snapshot sits beside it.",
        valueName: "path"), completion: .file())
    var db: String?

    /// Where the database is: `--db`, else the environment's choice.
    func location() throws(ExitCode) -> TimelineLocation {
        do throws(TimelineLocation.ResolutionError) {
            return try TimelineLocation.resolve(explicitPath: db)
        } catch {
            throw fail(error)
        }
    }

    /// Opens the store. Commands that only read pass `create: false` and get a friendly error
    /// when there is no database yet; with `create: true` the database is created by the first
    /// write that succeeds, so a command that fails before it creates nothing. A database locked
    /// by another process is waited for 5 s, or `TIMELINE_WRITE_TIMEOUT_MS` (`BusyTimeout.write`,
    /// separate from `show`'s short `TIMELINE_BUSY_TIMEOUT_MS`).
    func openStore(create: Bool) throws(ExitCode) -> TimelineStore {
        try Self.openStore(at: try location().databasePath, create: create)
    }

    /// `openStore(create:)` for the database at `path`.
    static func openStore(at path: String, create: Bool) throws(ExitCode) -> TimelineStore {
        do throws(TimelineStoreError) {
            var configuration = TimelineStore.Configuration(createIfMissing: create)
            if let milliseconds = BusyTimeout.write {
                configuration.busyTimeout = .milliseconds(milliseconds)
            }
            return try TimelineStore(path: path, configuration: configuration)
        } catch {
            throw fail(error)
        }
    }
}

/// Runs a command body, turning any error into its one-line report and exit status.
func reportingErrors<T>(_ body: () throws -> T) throws(ExitCode) -> T {
    do {
        return try body()
    } catch let exit as ExitCode {
        throw exit
    } catch {
        throw fail(error)
    }
}
