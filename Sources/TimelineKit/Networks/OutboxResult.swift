/// What the server answered to one change of the outbox (``OutboxEntry``), sent by
/// ``AccountSession/send(_:in:)-(OutboxEntry,_)``: the stored post, the vote, how a follow
/// stands, or the deleted post's ID.
public enum OutboxResult: Sendable, Hashable {
    /// The post published, as stored (its stand-in gone), and, for a reply whose asked
    /// visibility is wider than the post it answers, the two (`before`: the post answered's,
    /// `after`: the reply's), so that the command says what it widened; and what its server
    /// answered for each of its pictures, in the draft's order (`media`, issue 36: Mastodon's
    /// media IDs, Bluesky's blob CIDs; empty for a post without pictures), which the message
    /// does not keep.
    case posted(Message, widened: VisibilityChange? = nil, media: [String] = [])
    /// The post edited, as stored, and the audience its server gave it when that is not the
    /// one it had (`nil`: unchanged, or not known).
    case edited(Message, visibilityChange: VisibilityChange? = nil)
    /// The vote, with the poll's counts after it.
    case voted(PollVote)
    /// How the account now stands with the account followed or unfollowed.
    case following(FollowOutcome)
    /// The stored ID of the post deleted at its server (and here).
    case deleted(String)
    /// A mute, block or muted word (or its undo) made at the server (issue 34).
    case moderated(ModerationOutcome)
    /// The post its server is to publish later (a draft's ``PostDraft/scheduledAt``, issue 36):
    /// nothing is stored until it is published, and a sync brings it then.
    case scheduled(ScheduledPost)
}

extension OutboxResult {
    /// The post a waiting post became at its server, `nil` for every other change.
    var published: Message? {
        if case let .posted(message, _, _) = self { return message }
        return nil
    }
}
