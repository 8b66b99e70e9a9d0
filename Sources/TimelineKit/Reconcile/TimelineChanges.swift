#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What changed between a snapshot's window and the database, as `TimelineStore.reconcile(_:)`
/// found it: enough for a screen painted from the snapshot to update itself in place.
///
/// All ID lists are in timeline order (newest first).
public struct TimelineChanges: Sendable, Hashable {
    /// Messages in the current window that the snapshot's window did not show and that are not
    /// merely older ones moved up: new messages (or backfilled ones inside the shown time range).
    public var inserted: [String]
    /// Messages shown by both whose shown content differs: text, edit time, counts, read state,
    /// content warning, attachments, or the name or handle of a user the line shows.
    public var updated: [String]
    /// Messages the snapshot showed that are no longer stored.
    public var removed: [String]
    /// Messages the snapshot showed that are still stored but were pushed out of the window by
    /// newer ones.
    public var scrolledOut: [String]
    /// Older messages that moved into the window because shown ones were removed.
    public var scrolledIn: [String]
    /// The window as the database has it now.
    public var window: TimelinePage
    /// The database's state now (generation and counts).
    public var state: TimelineState
    /// The state the snapshot was built from.
    public var previousState: TimelineState

    /// Whether nothing that a screen shows has changed (window and counts).
    public var isEmpty: Bool {
        inserted.isEmpty && updated.isEmpty && removed.isEmpty && scrolledOut.isEmpty && scrolledIn.isEmpty
            && !countsChanged
    }

    /// The inserted messages (newest first) as a page to render on their own: with the rest of the
    /// window among its related messages, so that a new repost or quote of a message that was
    /// already shown still finds its original, and with the window's users.
    public var insertedPage: TimelinePage { page(of: Set(inserted)) }

    /// The window's messages among `ids` (newest first) as a page to render on their own, with the
    /// rest of the window among its related messages and the window's users (see `insertedPage`).
    public func page(of ids: Set<String>) -> TimelinePage {
        TimelinePage(messages: window.messages.filter { ids.contains($0.id) },
                     related: window.related + window.messages.filter { !ids.contains($0.id) },
                     users: window.users, interactions: window.interactions)
    }

    /// Whether the total, unread or user counts differ from the snapshot's.
    public var countsChanged: Bool {
        state.messageCount != previousState.messageCount || state.unreadCount != previousState.unreadCount
            || state.userCount != previousState.userCount
    }

    /// Whether the database moved since the snapshot: another generation, or another database.
    /// When it did not, nothing but the state was read and `window` is the snapshot's.
    var databaseMoved: Bool {
        !state.isShown(bySnapshotOf: previousState.databaseID, at: previousState.generation)
    }

    /// The window and state now, as the snapshot of `limit` messages that the next changes are
    /// measured against (what `TimelineChangeWatcher` and `--follow` keep as their baseline).
    func snapshot(limit: Int) -> TimelineSnapshot {
        TimelineSnapshot(state: state, builtAt: Date(), limit: limit, window: window)
    }

    /// No change: the database is at the snapshot's generation.
    static func none(since snapshot: TimelineSnapshot) -> TimelineChanges {
        TimelineChanges(inserted: [], updated: [], removed: [], scrolledOut: [], scrolledIn: [],
                        window: snapshot.window, state: snapshot.state, previousState: snapshot.state)
    }

    /// What changed since `snapshot` in a database now in `state`, read with `reader` inside the
    /// read transaction that read `state`: nothing more when the database has not moved, else one
    /// window and which of the messages that left it are still stored.
    static func since(_ snapshot: TimelineSnapshot, state: TimelineState, reader: TimelineReader) throws(SQLiteError) -> TimelineChanges {
        if snapshot.isFresh(for: state) { return .none(since: snapshot) }
        let window = try reader.page(limit: snapshot.limit, after: nil)
        let newIDs = Set(window.messages.map(\.id))
        let gone = snapshot.window.messages.map(\.id).filter { !newIDs.contains($0) }
        let stillStored = try reader.storedMessageIDs(among: gone)
        return .between(old: snapshot.window, oldState: snapshot.state,
                        new: window, newState: state, stillStored: stillStored)
    }

    /// Compares two windows. `stillStored` holds those IDs of the old window, missing from the new
    /// one, that the database still stores. Costs O(window size), whatever the database's size.
    static func between(
        old: TimelinePage, oldState: TimelineState,
        new: TimelinePage, newState: TimelineState,
        stillStored: Set<String>
    ) -> TimelineChanges {
        let oldIDs = Set(old.messages.map(\.id))
        let newIDs = Set(new.messages.map(\.id))
        let oldShown = ShownContent.Index(old)
        let newShown = ShownContent.Index(new)
        // The old window ended here; anything older that enters the window moved up, it is not new.
        let oldestShown = old.nextCursor == nil ? nil : old.messages.last?.cursor

        var changes = TimelineChanges(inserted: [], updated: [], removed: [], scrolledOut: [], scrolledIn: [],
                                      window: new, state: newState, previousState: oldState)
        for message in new.messages {
            if !oldIDs.contains(message.id) {
                if let oldestShown, message.cursor.precedesInTimeline(oldestShown) {
                    changes.scrolledIn.append(message.id)
                } else {
                    changes.inserted.append(message.id)
                }
            } else if oldShown.content(of: message.id) != newShown.content(of: message.id) {
                changes.updated.append(message.id)
            }
        }
        for message in old.messages where !newIDs.contains(message.id) {
            if stillStored.contains(message.id) {
                changes.scrolledOut.append(message.id)
            } else {
                changes.removed.append(message.id)
            }
        }
        return changes
    }
}

extension TimelineCursor {
    /// Whether this position comes after `other` in the timeline, i.e. is older.
    func precedesInTimeline(_ other: TimelineCursor) -> Bool {
        (createdAtMilliseconds, id) < (other.createdAtMilliseconds, other.id)
    }
}

/// Everything one timeline line shows for a message: the message, the people it names, and what
/// it reposts or quotes. Two lines look the same exactly when these are equal.
struct ShownContent: Hashable {
    var message: Message
    var author: User?
    var repliedTo: User?
    var reposted: Message?
    var repostedAuthor: User?
    var quoted: Message?
    var quotedAuthor: User?
    /// What the person's accounts did to the message and to what it reposts (`♥`, `⟲`, `🔖`).
    var interaction: MessageInteraction?
    var repostedInteraction: MessageInteraction?

    /// A page's messages and users by ID, for building `ShownContent` without rescanning.
    struct Index {
        let messages: [String: Message]
        let users: [String: User]
        let interactions: [String: MessageInteraction]

        init(_ page: TimelinePage) {
            messages = page.messagesByID
            users = page.usersByID
            interactions = Dictionary(page.interactions.map { ($0.messageID, $0) }, uniquingKeysWith: { first, _ in first })
        }

        func content(of id: String) -> ShownContent? {
            guard let message = messages[id] else { return nil }
            let reposted = message.repostOfID.flatMap { messages[$0] }
            let quoted = message.quoteOfID.flatMap { messages[$0] }
            return ShownContent(
                message: message,
                author: users[message.authorID],
                repliedTo: message.replyToUserID.flatMap { users[$0] },
                reposted: reposted,
                repostedAuthor: reposted.flatMap { users[$0.authorID] },
                quoted: quoted,
                quotedAuthor: quoted.flatMap { users[$0.authorID] },
                interaction: interactions[id],
                repostedInteraction: message.repostOfID.flatMap { interactions[$0] })
        }
    }
}
