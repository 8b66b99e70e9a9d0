/// Something a person does to a message at its server as one of their accounts, and its undo:
/// favourite (Bluesky: like), boost (Bluesky: repost), bookmark. Taken by
/// ``AccountSession/act(_:on:in:at:)``, whatever the network.
public enum MessageAction: String, Sendable, Hashable, CaseIterable, Codable {
    case favourite, unfavourite, boost, unboost, bookmark, unbookmark

    /// What the action sets or clears.
    public var kind: MessageInteraction.Kind {
        switch self {
        case .favourite, .unfavourite: .favourite
        case .boost, .unboost: .boost
        case .bookmark, .unbookmark: .bookmark
        }
    }

    /// Whether the action sets its kind (favourite) rather than clears it (unfavourite).
    public var sets: Bool {
        switch self {
        case .favourite, .boost, .bookmark: true
        case .unfavourite, .unboost, .unbookmark: false
        }
    }

    /// The action that undoes this one.
    public var undo: MessageAction {
        switch self {
        case .favourite: .unfavourite
        case .unfavourite: .favourite
        case .boost: .unboost
        case .unboost: .boost
        case .bookmark: .unbookmark
        case .unbookmark: .bookmark
        }
    }

    /// The action that sets (`on`) or clears `kind`.
    public init(_ kind: MessageInteraction.Kind, on: Bool) {
        switch kind {
        case .favourite: self = on ? .favourite : .unfavourite
        case .boost: self = on ? .boost : .unboost
        case .bookmark: self = on ? .bookmark : .unbookmark
        }
    }

    /// The past tense a one-line report uses: `Favourited`, `Removed the boost of`.
    public var done: String {
        switch self {
        case .favourite: "Favourited"
        case .unfavourite: "Unfavourited"
        case .boost: "Boosted"
        case .unboost: "Removed the boost of"
        case .bookmark: "Bookmarked"
        case .unbookmark: "Removed the bookmark of"
        }
    }
}
