/// Who may see a post: the four audiences of the Mastodon API (a network without them publishes
/// every post publicly and refuses a draft that sets one; ``SessionCapabilities``).
public enum PostVisibility: String, Sendable, Hashable, CaseIterable {
    /// Everyone, in public timelines; everyone, out of public timelines; followers; the people mentioned.
    case `public`, unlisted, `private`, direct
}
