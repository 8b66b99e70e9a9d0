/// What ``AccountSession/fetchThread(around:limit:in:)`` brought: how many posts of the
/// conversation the server sent and were stored, how many of them were not stored before, and
/// whether the server had more than the limit.
public struct ThreadFetch: Sendable, Hashable {
    /// The posts stored from the answer (the ones it could read, up to the limit).
    public var received: Int
    /// Of them, the ones not stored before.
    public var new: Int
    /// Whether the answer held more posts than the limit, which were left out.
    public var isCut: Bool
    /// Posts the answer held that could not be read (left out, as a sync leaves them out).
    public var skipped: Int

    /// `received` posts stored, `new` of them new; `isCut` when more were left out at the limit.
    public init(received: Int, new: Int, isCut: Bool = false, skipped: Int = 0) {
        self.received = received
        self.new = new
        self.isCut = isCut
        self.skipped = skipped
    }

    /// The most posts one fetch stores: a hostile server's context of a million replies is cut
    /// here, and the answer's size by the transport's limit before it.
    public static let maximumPosts = 2_000
}
