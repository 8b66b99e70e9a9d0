/// Why a post's options were refused before it was published, in one sentence that says what
/// to change (issue 36): a poll beyond the server's limits, a schedule that has become too
/// near. Nothing was published; a waiting post refused so no longer waits.
public struct PostOptionRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The sentence.
    public var reason: String

    /// A refusal saying `reason`.
    public init(_ reason: String) { self.reason = reason }

    public var description: String { reason + " Nothing was posted." }
}
