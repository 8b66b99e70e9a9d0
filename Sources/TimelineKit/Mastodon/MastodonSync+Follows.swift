#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MastodonSync {
    /// `text` as a handle to look up on a Mastodon-API server, or `nil` when it cannot be one:
    /// one leading `@` dropped, then `user` (an account of this server: letters, digits and
    /// `_`) or `user@host` (a user name of letters, digits, `_`, and `.` or `-` inside, as other
    /// servers of the fediverse allow; a host name of ASCII labels). Nothing else is sent: a
    /// handle is typed by a person and could hold a query's `&`, a path's `/` or a line break.
    public static func followableHandle(_ text: String) -> String? {
        var handle = Substring(text)
        if handle.first == "@" { handle = handle.dropFirst() }
        let parts = handle.split(separator: "@", omittingEmptySubsequences: false)
        guard parts.count == 1 || parts.count == 2, let user = parts.first, !user.isEmpty, user.utf8.count <= 100 else { return nil }
        let plain = user.utf8.allSatisfy { $0 == UInt8(ascii: "_") || HostName.isLetterOrDigit($0) }
        if parts.count == 1 { return plain ? String(user) : nil }
        let inner = user.utf8.allSatisfy { $0 == UInt8(ascii: "_") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "-") || HostName.isLetterOrDigit($0) }
        guard inner, user.first != "." && user.first != "-" && user.last != "." && user.last != "-",
              HostName.isValid(parts[1]) else { return nil }
        return String(user) + "@" + parts[1].lowercased()
    }

    /// The account `handle` names (``followableHandle(_:)``'s answer): `GET /api/v1/accounts/lookup`,
    /// which knows the accounts the server has seen; when it does not know the handle, or lacks the
    /// endpoint (Takahē), `GET /api/v2/search?type=accounts&resolve=true`, which asks the
    /// handle's own server, as the server's web page does for a handle typed in its search.
    ///
    /// - Throws: `.rejected` with status 404 naming the handle when neither finds it.
    public func lookUp(_ handle: String) async throws(ServerError) -> FollowedUser {
        let lookup = client.server.url("/api/v1/accounts/lookup", query: [("acct", handle)])
        do {
            let response = try await client.sendOptional(.get, lookup)
            return try ServerResponseReader.read(response, from: lookup) { document throws(JSONLineFailure) in
                try user(JSONObjectView(document, path: "", expected: "an account object"))
            }
        } catch {
            // Not known here (404), or the server lacks the lookup: its search may find it.
            guard case .notSupported = error else { throw error }
        }
        let search = client.server.url("/api/v2/search", query: [("q", handle), ("type", "accounts"), ("resolve", "true"), ("limit", "5")])
        let response = try await client.sendOptional(.get, search)
        let found = try ServerResponseReader.read(response, from: search) { document throws(JSONLineFailure) -> [FollowedUser] in
            let answer = try JSONObjectView(document, path: "", expected: "a search answer")
            var users: [FollowedUser] = []
            for (index, node) in (try answer.array("accounts", expected: "an array of accounts") ?? []).prefix(5).enumerated() {
                users.append(try user(JSONObjectView(node, path: "accounts[\(index)]", expected: "an account object")))
            }
            return users
        }
        // Only the account the handle names: a search finds names that merely look alike.
        let wanted = handle.contains("@") ? handle.lowercased() : handle.lowercased() + "@" + namespace.authority.lowercased()
        guard let user = found.first(where: { $0.handle.lowercased() == wanted }) else {
            throw .rejected(url: lookup, status: 404, reason: "no account @\(handle) is known to \(namespace.authority) or could be found through it; check the spelling (user@server)")
        }
        return user
    }

    /// An account object (`id`, `acct`, `display_name`) as a ``FollowedUser``; a local account's
    /// `acct` (no `@host`) is given this server's host, so that the handle says where it is.
    func user(_ view: JSONObjectView) throws(JSONLineFailure) -> FollowedUser {
        var handle = try view.requiredString("acct")
        if !handle.contains("@") { handle += "@" + namespace.authority }
        return FollowedUser(id: try view.requiredID("id"), handle: handle, name: try view.string("display_name") ?? "")
    }

    /// Follows or unfollows `handle`: looks it up (``lookUp(_:)``), then
    /// `POST /api/v1/accounts/:id/follow` or `unfollow`, whose answer (a relationship) says
    /// whether it is now followed, or the follow waits for approval (`requested`). Mastodon
    /// answers a follow already made with the relationship as it is: doing it twice is harmless.
    public func setFollowing(_ handle: String, _ following: Bool) async throws(ServerError) -> FollowOutcome {
        let user = try await lookUp(handle)
        let url = client.server.url("/api/v1/accounts/" + FormEncoding.escape(user.id) + (following ? "/follow" : "/unfollow"))
        let response = try await client.send(.post, url, feature: "following accounts",
                                             endpoint: following ? "POST /api/v1/accounts/:id/follow" : "POST /api/v1/accounts/:id/unfollow")
        let state = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            let relationship = try JSONObjectView(document, path: "", expected: "a relationship object")
            return (following: try relationship.bool("following"), requested: try relationship.bool("requested"))
        }
        return FollowOutcome(user: user, following: state.following ?? following, requested: state.requested ?? false)
    }

    /// The accounts this account follows (`GET /api/v1/accounts/:id/following`), at most
    /// `limit`, paged and bounded as `accountPages(_:endpoint:feature:limit:_:)` does.
    public func followedUsers(limit: Int) async throws(ServerError) -> [FollowedUser] {
        let ownID = try await ownAccountServerID()
        let url = accountPagesURL("/api/v1/accounts/" + FormEncoding.escape(ownID) + "/following", limit: limit)
        return try await accountPages(url, endpoint: "GET /api/v1/accounts/:id/following", feature: "listing the accounts followed",
                                      limit: limit) { view throws(JSONLineFailure) in try user(view) }.accounts
    }
}
