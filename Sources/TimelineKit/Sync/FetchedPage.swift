/// One page of a server's timeline (the home timeline, or notifications) as it arrived: the
/// entries' server IDs newest first, what they hold, and where the next older page starts.
struct FetchedPage: Sendable {
    /// The server's IDs of the entries, newest first: status IDs for the home timeline,
    /// notification IDs for notifications. Opaque: compared for equality only, never ordered.
    var entryIDs: [String]
    /// The users and messages the page holds, their IDs in the server's namespace.
    var timeline: DecodedTimeline
    /// The notifications, one per entry, for a notifications page.
    var notifications: [DecodedNotification]
    /// The `max_id` that asks for the next older page, taken from the `Link` header's
    /// `rel="next"` (else the last entry's ID when the server sent no `Link` at all); `nil` when
    /// the server says there is nothing older.
    var olderCursor: String?
    /// Entries of the page left out because they could not be read (an ID of the wrong type,
    /// a missing author): one bad entry costs that entry, never the page (issue 24).
    var skipped = PageSkips()
    /// How many entries the server's answer held (before any cut to the number asked), for a
    /// page the server answered; `nil` otherwise (a streamed entry). A page asked for above
    /// the stored newest entry that holds fewer than asked reaches it.
    var answered: Int?
    /// The entry at which reading stopped because the timeline already held it, for a network
    /// that cannot be asked for what is newer than an entry (Bluesky, issue 28): that entry was
    /// not decoded and is not in `entryIDs`, and what the answer held below it was not read.
    /// `nil` when the page was read whole.
    var reachedHeldID: String?

    var isEmpty: Bool { entryIDs.isEmpty }
}
