/// Whether the snapshot beside a database shows what the database holds now.
public enum SnapshotStatus: Sendable, Equatable, CustomStringConvertible {
    /// The snapshot was built from the database's current generation.
    case fresh(generation: Int64)
    /// The database has changed since the snapshot was built (or it was built from another
    /// database at the same path).
    case stale(snapshotGeneration: Int64, databaseGeneration: Int64, sameDatabase: Bool)
    /// There is no snapshot file.
    case missing
    /// The snapshot file cannot be used; the error says why.
    case unusable(SnapshotError)

    /// Compares a snapshot's header with the database's state.
    init(header: SnapshotHeader, state: TimelineState) {
        if state.isShown(bySnapshotOf: header.databaseID, at: header.generation) {
            self = .fresh(generation: state.generation)
        } else {
            self = .stale(snapshotGeneration: header.generation, databaseGeneration: state.generation,
                          sameDatabase: header.databaseID == state.databaseID)
        }
    }

    public var isFresh: Bool {
        if case .fresh = self { return true }
        return false
    }

    public var description: String {
        switch self {
        case let .fresh(generation):
            "fresh (generation \(generation))"
        case let .stale(snapshot, database, sameDatabase):
            sameDatabase
                ? "stale: the snapshot shows generation \(snapshot), the database is at generation \(database)"
                : "stale: the snapshot was built from a different database (one since replaced at this path)"
        case .missing:
            "missing"
        case let .unusable(error):
            "unusable: \(error)"
        }
    }
}

extension TimelineState {
    /// Whether a snapshot built from the database `databaseID` at `generation` shows exactly what
    /// a database in this state holds: the same database (not one deleted and created again at
    /// the same path) at the same generation. The one rule of freshness, which every snapshot,
    /// preview, header and status check follows.
    func isShown(bySnapshotOf databaseID: String, at generation: Int64) -> Bool {
        self.databaseID == databaseID && self.generation == generation
    }
}
