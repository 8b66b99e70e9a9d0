/// How much one sync of an account (``AccountSession/sync(into:options:)``) fetches and how long
/// it may take; each network keeps its own page sizes and limits.
public struct SyncOptions: Sendable, Hashable {
    /// How many of the newest home entries the first sync of an account stores.
    public var homeDepth: Int
    /// How long the sync may take in all; `nil`: as long as its requests take.
    public var timeLimit: Duration?

    /// The first sync's depth (200 by default) and the time limit (``RequestPolicy/defaultSyncTimeLimit``).
    public init(homeDepth: Int = 200, timeLimit: Duration? = RequestPolicy.defaultSyncTimeLimit) {
        self.homeDepth = homeDepth
        self.timeLimit = timeLimit
    }
}
