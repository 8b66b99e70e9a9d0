/// What the messages of one subscription are named by. The storage of subscriptions chooses
/// it and keeps it for the subscription's life: message IDs are made from ``id``, so changing
/// it would make every item new.
public struct FeedSubscriptionIdentity: Sendable, Hashable {
    /// A key unique among subscriptions and stable across fetches, renames and redirects (a
    /// row ID, or the first URL subscribed to): the namespace of its items' message IDs.
    public var id: String
    /// The name a person calls the subscription by (`--name`, else derived from the feed):
    /// shown as the handle of its authors.
    public var name: String

    /// The identity of a subscription the storage keeps.
    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}
