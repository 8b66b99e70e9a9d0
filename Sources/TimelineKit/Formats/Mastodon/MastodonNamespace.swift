/// Where synced messages and users come from, written into their IDs: a status or account ID of
/// a Mastodon-API server is stored as `authority/id` (`mastodon.social/109876543210`).
///
/// Two servers number their statuses and accounts independently, so the same digits on two
/// servers are different things; with the server's authority in front they never collide. One
/// server gives a status one ID whoever reads it, so a status synced by two accounts of the same
/// server, or twice, is one message. (The same post seen through two servers has two IDs, one
/// on each, and is two messages: their counts and replies are each server's view.)
///
/// Only IDs are rewritten: handles stay as the server writes `acct` (`alice` for its own users,
/// `alice@example.social` for others), as Mastodon apps show them. IDs that never came from a
/// server (JSON Lines imports, `local-…` posts, Mastodon files imported without an account)
/// have no `/` and never collide with these.
public struct MastodonNamespace: Sendable, Hashable {
    /// The server's authority (`ServerAddress.authority`).
    public let authority: String

    /// The namespace of `server`'s IDs.
    public init(server: ServerAddress) {
        authority = server.authority
    }

    /// The stored ID of the server's ID `id`.
    public func id(_ id: String) -> String {
        authority + "/" + id
    }

    /// The server's own ID inside a stored ID of this namespace; `nil` for an ID of another
    /// server, or one that came from no server.
    public func serverID(of storedID: String) -> String? {
        let prefix = authority + "/"
        guard storedID.hasPrefix(prefix), storedID.utf8.count > prefix.utf8.count else { return nil }
        return String(storedID.dropFirst(prefix.count))
    }

    /// `timeline` with every user, message and reference ID in this namespace: how a saved
    /// Mastodon file imported for an account (`timeline import --account NAME`) joins what sync
    /// stores for it.
    public func apply(to timeline: DecodedTimeline) -> DecodedTimeline {
        var result = DecodedTimeline()
        for user in timeline.users {
            var user = user
            user.id = id(user.id)
            result.add(user)
        }
        for message in timeline.messages {
            result.add(apply(to: message))
        }
        for var interaction in timeline.interactions {
            interaction.messageID = id(interaction.messageID)
            result.add(interaction)
        }
        return result
    }

    /// `message` with its ID, author, references and the IDs of the filters it matched in this namespace.
    public func apply(to message: Message) -> Message {
        var message = message
        message.id = id(message.id)
        message.authorID = id(message.authorID)
        message.replyToID = message.replyToID.map(id)
        message.replyToUserID = message.replyToUserID.map(id)
        message.repostOfID = message.repostOfID.map(id)
        message.quoteOfID = message.quoteOfID.map(id)
        for index in message.moderation.filterMatches.indices {
            message.moderation.filterMatches[index].filterID = message.moderation.filterMatches[index].filterID.map(id)
        }
        return message
    }
}
