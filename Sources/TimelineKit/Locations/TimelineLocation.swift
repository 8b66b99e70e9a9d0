#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a timeline's database and snapshot live.
///
/// The database is, in order of precedence: an explicit path (`--db`), `$TIMELINE_DB`,
/// `$XDG_DATA_HOME/timeline/timeline.sqlite`, `$HOME/.local/share/timeline/timeline.sqlite`.
/// The snapshot sits beside the database, named after it (`SnapshotFile.path(forDatabaseAt:)`).
/// The home directory comes from `$HOME`, never from the password database: a fully static
/// executable cannot call glibc's name-service functions reliably.
public struct TimelineLocation: Sendable, Hashable {
    /// The database file.
    public var databasePath: String
    /// The snapshot file beside it.
    public var snapshotPath: String

    public init(databasePath: String) {
        self.databasePath = databasePath
        self.snapshotPath = SnapshotFile.path(forDatabaseAt: databasePath)
    }

    /// Why no location could be chosen.
    public enum ResolutionError: Error, Sendable, Equatable, CustomStringConvertible {
        case noHomeDirectory

        public var description: String {
            "Cannot tell where the timeline lives: HOME is not set. Set TIMELINE_DB to a database path, or pass --db PATH."
        }
    }

    /// Chooses the location from an explicit path and the environment (`getenv` by default).
    public static func resolve(
        explicitPath: String? = nil,
        environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
    ) throws(ResolutionError) -> TimelineLocation {
        func nonEmpty(_ value: String?) -> String? {
            guard let value, !value.isEmpty else { return nil }
            return value
        }
        if let path = nonEmpty(explicitPath) ?? nonEmpty(environment("TIMELINE_DB")) {
            return TimelineLocation(databasePath: path)
        }
        // The XDG spec says a relative XDG_DATA_HOME is invalid and must be ignored.
        if let dataHome = nonEmpty(environment("XDG_DATA_HOME")), dataHome.hasPrefix("/") {
            return TimelineLocation(databasePath: dataHome + "/timeline/timeline.sqlite")
        }
        guard let home = nonEmpty(environment("HOME")) else { throw .noHomeDirectory }
        return TimelineLocation(databasePath: home + "/.local/share/timeline/timeline.sqlite")
    }
}
