/// Who may see a post: the four audiences of the Mastodon API (a network without them publishes
/// every post publicly and refuses a draft that sets one; ``SessionCapabilities``).
public enum PostVisibility: String, Sendable, Hashable, CaseIterable, Codable {
    /// Everyone, in public timelines; everyone, out of public timelines; followers; the people mentioned.
    case `public`, unlisted, `private`, direct
}

extension PostVisibility {
    /// The audience a reply to a post of this visibility gets when none is asked for: never
    /// wider than the post's own (issue 34: a reply to a direct message went out public). A
    /// direct message's reply is direct and a followers-only post's followers-only; a public
    /// or unlisted post's leaves it to the account's default (`nil`), which a reply to those
    /// cannot make more public than the conversation already is.
    public var replyVisibility: PostVisibility? {
        switch self {
        case .direct, .private: self
        case .public, .unlisted: nil
        }
    }

    /// Whether more people may see a post of this visibility than one of `other`'s.
    public func isWider(than other: PostVisibility) -> Bool {
        reach > other.reach
    }

    /// From the fewest readers to the most.
    private var reach: Int {
        switch self {
        case .direct: 0
        case .private: 1
        case .unlisted: 2
        case .public: 3
        }
    }

}

/// An audience a server changed on its own: Takahē answers an edit of an unlisted post with the
/// post made public (issue 34). Said, never hidden: the person chose the first.
public struct VisibilityChange: Sendable, Hashable {
    /// Who could see the post before.
    public var before: PostVisibility
    /// Who can see it now, as the server answered.
    public var after: PostVisibility

    public init(before: PostVisibility, after: PostVisibility) {
        self.before = before
        self.after = after
    }
}
