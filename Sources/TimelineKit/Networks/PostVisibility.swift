/// Who may see a post: the four audiences of the Mastodon API (a network without them publishes
/// every post publicly and refuses a draft that sets one; ``SessionCapabilities``).
public enum PostVisibility: String, Sendable, Hashable, CaseIterable {
    case `public`, unlisted, `private`, direct
}
