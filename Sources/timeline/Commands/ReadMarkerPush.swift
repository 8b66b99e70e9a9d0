import TimelineKit

/// After `mark-read`, what was read here moves the accounts' home read markers at once, so the
/// phone opens where the terminal stopped without waiting for the next `timeline sync`.
///
/// Only accounts that own a message marked (its ID is in the account's server namespace; every
/// account with `--all`) are asked, one `AccountSession.syncReadMarker(in:)` each: read the marker,
/// set it when the read part of the home timeline is past it. The network must not make a local
/// command slow or fail: one attempt per request with a 5-second limit, and a failure is a note
/// that the next sync will do it; the marking itself stands either way (exit 0). A server
/// without markers is said once (the account remembers it) and never promised a marker.
struct ReadMarkerPush {
    /// What one account's push did: the marker set, or why it was not.
    struct Outcome {
        var account: String
        var markerSet: String?
        /// The server keeps no read markers (``ServerFeature/markers``), found now for the first
        /// time (`true`) or known before (`false`); `nil` when it has them.
        var lacksMarkers: Bool?
        var failure: (any Error)?
    }

    /// The policy of a push: no retries, a short limit, no waiting for a rate limit.
    static let policy = RequestPolicy(maximumAttempts: 1, maximumRateLimitWait: .zero, requestTimeout: .seconds(5))

    /// Pushes for the accounts owning any of `ids` (every account when `ids` is `nil`). Nothing
    /// happens, and no file is read beyond one `lstat`, when nobody ever logged in.
    static func push(for ids: [String]?, store: TimelineStore) -> [Outcome] {
        guard let accountStore = try? AccountStore.standard(), accountStore.hasAccountsFile,
              let accounts = try? accountStore.accounts() else { return [] }
        // Only networks that keep a read position of the home timeline (Mastodon) have one to set.
        let concerned = accounts.compactMap { account -> (any AccountSession)? in
            guard account.network.refusal(of: .readMarker) == nil,
                  let session = try? accountStore.session(for: account, transport: CurlTransport(), policy: policy) else { return nil }
            guard let ids else { return session }
            return ids.contains { session.holds(messageID: $0) } ? session : nil
        }
        return concerned.map { session in
            let account = session.account
            do {
                let result = try waitFor { () async throws -> ReadMarkerSync in try await session.syncReadMarker(in: store) }
                return Outcome(account: account.name, markerSet: result.markerSet,
                               lacksMarkers: result.serverLacksMarkers ? result.lackNoticedNow : nil)
            } catch {
                return Outcome(account: account.name, failure: error)
            }
        }
    }
}
