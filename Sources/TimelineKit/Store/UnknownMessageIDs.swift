/// What a change by message ID does with IDs that name no stored message
/// (`TimelineStore.deleteMessages(ids:unknownIDs:)`, `markRead(ids:read:unknownIDs:)`).
public enum UnknownMessageIDs: Sendable, Hashable {
    /// Change the messages that are stored and pass over the rest: what a fetcher wants when a
    /// server reports messages it never stored.
    case ignore
    /// All or nothing: when any ID names no message, change nothing and throw
    /// `TimelineStoreError.unknownMessages(ids:given:)` naming them. What a person typing IDs
    /// wants: a mistyped ID is a mistake to hear about, and a half-done change would hide it.
    /// Costs one statement more, in the same transaction, before the change.
    case refuse
}
