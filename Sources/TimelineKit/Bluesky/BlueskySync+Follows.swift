#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BlueskySync {
    /// `text` as a Bluesky actor to follow, or `nil` when it cannot be one: one leading `@`
    /// dropped, then a handle (a DNS name of ASCII labels whose last starts with a letter:
    /// `alice.bsky.social`, lowercased, as handles are compared) or a DID (`did:plc:` and 24
    /// base32 characters, `did:web:` and a host name). Nothing else is sent.
    public static func followableHandle(_ text: String) -> String? {
        var handle = Substring(text)
        if handle.first == "@" { handle = handle.dropFirst() }
        if handle.hasPrefix("did:plc:") {
            let key = handle.dropFirst(8)
            let base32 = key.utf8.allSatisfy { (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains($0) || (UInt8(ascii: "2") ... UInt8(ascii: "7")).contains($0) }
            return key.utf8.count == 24 && base32 ? String(handle) : nil
        }
        if handle.hasPrefix("did:web:") {
            return HostName.isValid(handle.dropFirst(8)) ? String(handle) : nil
        }
        guard HostName.isValid(handle), let last = handle.split(separator: ".").last?.utf8.first,
              (UInt8(ascii: "a") ... UInt8(ascii: "z")).contains(last | 0x20) else { return nil }
        return handle.lowercased()
    }

    /// An actor as the AppView shows it to the account: who it is, and the account's follow
    /// record of it, mute and block record (`viewer`).
    struct ViewedProfile {
        var user: FollowedUser
        /// The account's follow record of the actor (an AT URI), if any.
        var follow: String?
        /// Whether the account mutes the actor.
        var muted: Bool
        /// The account's block record of the actor (an AT URI), if any.
        var blocking: String?
    }

    /// The actor `handle` as the AppView shows it to the account (`app.bsky.actor.getProfile`,
    /// which takes a handle or a DID): its DID, handle, name, and the account's follow record,
    /// mute and block record of it (`viewer.following`, `viewer.muted`, `viewer.blocking`).
    ///
    /// - Throws: `.rejected` naming the handle when the AppView knows no such actor (it answers
    ///   400 `Profile not found`, or that it cannot resolve the handle).
    func profile(_ handle: String) async throws(ServerError) -> ViewedProfile {
        let nsid = "app.bsky.actor.getProfile"
        let url = client.host.url("/xrpc/" + nsid)
        let response: HTTPResponse
        do {
            response = try await client.query(nsid, [("actor", handle)])
        } catch {
            if case let .rejected(_, status, reason) = error, status == 400 || status == 404 {
                throw .rejected(url: url, status: status, reason: "no Bluesky account is @\(handle) (the server said: \(reason ?? "nothing more")); check the spelling (name.bsky.social)")
            }
            throw error
        }
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            let view = try JSONObjectView(document, path: "", expected: "a profile object")
            let viewer = try view.object("viewer", expected: "a viewer state object")
            return ViewedProfile(user: FollowedUser(id: try view.requiredString("did"), handle: try view.requiredString("handle"),
                                                    name: try view.string("displayName") ?? ""),
                                 follow: try viewer?.string("following"), muted: try viewer?.bool("muted") ?? false,
                                 blocking: try viewer?.string("blocking"))
        }
    }

    /// Follows or unfollows `handle`: the profile first (`profile(_:)`), whose viewer state
    /// names the account's follow record when there is one, so that a follow is never made twice
    /// and an unfollow deletes the record that exists. A follow is an `app.bsky.graph.follow`
    /// record in the account's repository (`com.atproto.repo.createRecord`, subject: the DID);
    /// the unfollow deletes it (`com.atproto.repo.deleteRecord`).
    ///
    /// A follow from the outbox (issue 27) brings `recordKey`, chosen when it was queued: the
    /// record is written with that key (`com.atproto.repo.putRecord`), so a retry of a try whose
    /// answer was lost writes the same record again, even while the AppView does not show it.
    public func setFollowing(_ handle: String, _ following: Bool, recordKey: String? = nil) async throws(ServerError) -> FollowOutcome {
        guard let session = client.currentSession else { throw .unauthorized(server: client.service.baseURL) }
        let viewed = try await profile(handle)
        let (user, record) = (viewed.user, viewed.follow)
        if following {
            guard record == nil else { return FollowOutcome(user: user, following: true, changed: false) }
            try await writeGraphRecord("app.bsky.graph.follow", subject: user.id, did: session.did, recordKey: recordKey)
            return FollowOutcome(user: user, following: true)
        }
        guard let record else { return FollowOutcome(user: user, following: false, changed: false) }
        try await deleteGraphRecord(record, collection: "app.bsky.graph.follow", did: session.did, what: "follow")
        return FollowOutcome(user: user, following: false)
    }

    /// The accounts this account follows (`app.bsky.graph.getFollows` of its DID, 100 a page, by
    /// cursor), at most `limit`, in at most `limit / 50 + 2` requests.
    public func followedUsers(limit: Int) async throws(ServerError) -> [FollowedUser] {
        guard let session = client.currentSession else { throw .unauthorized(server: client.service.baseURL) }
        let nsid = "app.bsky.graph.getFollows"
        let url = client.host.url("/xrpc/" + nsid)
        var users: [FollowedUser] = []
        var cursor: String?
        var requests = 0
        while users.count < limit, requests < limit / 50 + 2 {
            requests += 1
            var query = [(name: "actor", value: session.did), (name: "limit", value: String(min(100, limit - users.count)))]
            if let cursor { query.append((name: "cursor", value: cursor)) }
            let response = try await client.query(nsid, query)
            let wanted = limit - users.count
            let (page, next) = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                let answer = try JSONObjectView(document, path: "", expected: "a follows answer")
                var page: [FollowedUser] = []
                for (index, node) in (try answer.array("follows", expected: "an array of profiles") ?? []).prefix(wanted).enumerated() {
                    let view = try JSONObjectView(node, path: "follows[\(index)]", expected: "a profile object")
                    page.append(FollowedUser(id: try view.requiredString("did"), handle: try view.requiredString("handle"),
                                             name: try view.string("displayName") ?? ""))
                }
                return (page, try answer.string("cursor"))
            }
            users += page
            guard !page.isEmpty, let next, next != cursor else { break }
            cursor = next
        }
        return users
    }
}
