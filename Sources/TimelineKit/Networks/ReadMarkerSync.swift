/// What syncing an account's home read position did (``AccountSession/syncReadMarker(in:)``):
/// the answer of every network, also of one that keeps no read position.
public struct ReadMarkerSync: Sendable, Hashable {
    /// Messages marked read because the server's marker moved past them.
    public var markedRead = 0
    /// The server's status ID the marker was set to, when it was set.
    public var markerSet: String?
    /// The server has no read markers (``ServerFeature/markers``): nothing was, or will be, set.
    public var serverLacksMarkers = false
    /// …and this is the first time that was found (for the account): worth telling the person.
    public var lackNoticedNow = false

    public init(markedRead: Int = 0, markerSet: String? = nil, serverLacksMarkers: Bool = false, lackNoticedNow: Bool = false) {
        self.markedRead = markedRead
        self.markerSet = markerSet
        self.serverLacksMarkers = serverLacksMarkers
        self.lackNoticedNow = lackNoticedNow
    }
}
