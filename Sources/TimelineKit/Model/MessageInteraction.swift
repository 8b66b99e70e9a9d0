/// What the person's accounts have done to one message: favourited (liked), boosted
/// (reposted), bookmarked, as the servers last said or as an action here set it. A page
/// (``TimelinePage/interactions``) carries one per message that has any, so that show, thread,
/// search and browse paint `♥`/`⟲`/`🔖` beside the counts; the store keeps them per account
/// (`TimelineStore.interactions(account:messageID:)`) and a page merges the accounts.
public struct MessageInteraction: Sendable, Codable, Hashable {
    /// One of the things a person can do to a message.
    public enum Kind: String, Sendable, Hashable, CaseIterable, Codable {
        case favourite, boost, bookmark
    }

    /// The stored ID of the message.
    public var messageID: String
    /// Favourited (liked) by one of the accounts.
    public var favourited: Bool
    /// Boosted (reposted) by one of the accounts.
    public var boosted: Bool
    /// Bookmarked by one of the accounts.
    public var bookmarked: Bool
    /// Whether an action on the message waits for its server (``PendingAction``): the flags say
    /// what it will make them, and the screen says it is not done yet.
    public var pending: Bool

    /// A message's interactions, none set unless given.
    public init(messageID: String, favourited: Bool = false, boosted: Bool = false, bookmarked: Bool = false,
                pending: Bool = false) {
        self.messageID = messageID
        self.favourited = favourited
        self.boosted = boosted
        self.bookmarked = bookmarked
        self.pending = pending
    }

    /// Whether `kind` is set.
    public subscript(kind: Kind) -> Bool {
        get {
            switch kind {
            case .favourite: favourited
            case .boost: boosted
            case .bookmark: bookmarked
            }
        }
        set {
            switch kind {
            case .favourite: favourited = newValue
            case .boost: boosted = newValue
            case .bookmark: bookmarked = newValue
            }
        }
    }

    /// Whether nothing is set and nothing waits (such an interaction is not stored nor carried).
    public var isEmpty: Bool { !favourited && !boosted && !bookmarked && !pending }
}
