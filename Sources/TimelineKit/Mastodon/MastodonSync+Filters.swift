#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MastodonSync {
    /// Reads the person's filters (`GET /api/v2/filters`, ``MastodonFilters``) into the
    /// account's rules (``TimelineTransaction/updateModerationRules(account:now:_:)``), which re-decides
    /// what is stored: a filter made in the web interface hides old posts at the next sync, not
    /// only new ones. Part of `run()`, before the timelines, so that what they bring is decided
    /// with the filters as they are now.
    ///
    /// A server without v2 filters (``ServerFeature/filters``: 404 before Mastodon 4.0, 405, 501)
    /// is not a
    /// failure: it is said once (`lackNoticedNow`), remembered, and not asked again for
    /// ``ServerFeature/recheckInterval``; the rules keep what they had.
    ///
    /// - Returns: whether the lack was noticed by this call.
    @discardableResult
    public func syncFilters() async throws(ServerError) -> (lacking: Bool, lackNoticedNow: Bool) {
        let authority = namespace.authority
        let now = MillisecondTime.milliseconds(from: client.clock.now())
        let (lackingSince, recent) = try lack(of: .filters, at: now)
        if recent { return (true, false) }
        let url = client.server.url("/api/v2/filters")
        let filters: MastodonFilters
        do {
            let response = try await client.sendOptional(.get, url)
            filters = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                try MastodonFilters(document, namespace: namespace)
            }
        } catch {
            guard case .notSupported = error else { throw error }
            try recordLack(of: .filters, at: now)
            return (true, lackingSince == nil)
        }
        if lackingSince != nil { try recordLack(of: .filters, at: nil) }
        let date = client.clock.now()
        try write { transaction throws(TimelineStoreError) in
            _ = try transaction.updateModerationRules(account: account, now: date) { rules in filters.apply(to: &rules, authority: authority) }
        }
        return (false, false)
    }
}
