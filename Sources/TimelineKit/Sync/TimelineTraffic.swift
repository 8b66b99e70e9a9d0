/// What one timeline's sync (home, or notifications) received from the server: the measure of
/// issue 28's goal that a sync transfers and decodes in proportion to what is new.
public struct TimelineTraffic: Sendable, Hashable {
    /// Body bytes of every answer received while syncing the timeline (its pages, the gaps
    /// filled, the posts a Bluesky notification names, retries), headers not counted.
    public var bodyBytes = 0
    /// Entries of the server's pages that were decoded (the new ones, the already-stored ones
    /// a page repeated, and those left out as unreadable).
    public var entriesDecoded = 0
    /// Requests sent for the timeline, retries included.
    public var requests = 0

    /// Nothing received.
    public init() {}

    /// What `bodyBytes`, `entriesDecoded` and `requests` say.
    public init(bodyBytes: Int, entriesDecoded: Int, requests: Int) {
        self.bodyBytes = bodyBytes
        self.entriesDecoded = entriesDecoded
        self.requests = requests
    }
}
