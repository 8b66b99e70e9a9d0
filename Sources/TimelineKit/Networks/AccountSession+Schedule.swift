// What a source without scheduled posts does (issue 36): it refuses, as
// AccountSession+Defaults.swift's requirements do, in the network's own words.

extension AccountSession {
    /// Refuses: the source has no scheduled posts (``SourceAction/schedule``).
    public func scheduledPosts(limit: Int, in store: TimelineStore) async throws -> [ScheduledPost] {
        throw SourceError.unsupported(action: .schedule, source: account.network.displayName, reason: capabilities.refusals[.schedule])
    }

    /// Refuses: the source has no scheduled posts (``SourceAction/schedule``).
    public func unschedule(_ id: String, in store: TimelineStore) async throws {
        throw SourceError.unsupported(action: .schedule, source: account.network.displayName, reason: capabilities.refusals[.schedule])
    }
}
