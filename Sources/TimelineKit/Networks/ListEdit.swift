/// A change to the lists an account keeps at its server (`timeline list create|add|remove|delete`),
/// as ``AccountSession/editList(_:in:)`` makes it.
///
/// Made at once, not through the outbox as a follow is: a list is named by the ID its server
/// gives when it is created, so a change queued offline could not name the list it adds to.
public enum ListEdit: Sendable, Hashable {
    /// Makes a list of this title (Mastodon: a list; Bluesky: a curation list).
    case create(title: String)
    /// Adds the account `handle` names to the list `list` (its ID: ``TimelineList/id``).
    case add(list: String, handle: String)
    /// Takes the account `handle` names out of the list `list`.
    case remove(list: String, handle: String)
    /// Deletes the list `list` (on Bluesky, its items with it).
    case delete(list: String)
}

/// What a ``ListEdit`` did.
public struct ListEditOutcome: Sendable, Hashable {
    /// The list made (``ListEdit/create(title:)``), with the ID the other edits take.
    public var created: TimelineList?
    /// The account added or taken out, as the server names it.
    public var account: FollowedUser?
    /// Whether the server's lists changed (`false`: the account was already in the list, or not in it).
    public var changed: Bool
    /// The records deleted with a Bluesky list (its items); 0 elsewhere.
    public var itemsDeleted: Int

    public init(created: TimelineList? = nil, account: FollowedUser? = nil, changed: Bool = true, itemsDeleted: Int = 0) {
        self.created = created
        self.account = account
        self.changed = changed
        self.itemsDeleted = itemsDeleted
    }
}
