/// Why a vote or an edit was refused before anything was sent: what the server said of the
/// post (``AccountSession/vote(in:choices:in:)``, ``AccountSession/edit(_:text:in:)``).
/// Each says what to do instead.
public enum PostChangeRefusal: Error, Sendable, Hashable, CustomStringConvertible {
    /// The post has no poll.
    case noPoll
    /// The poll has ended.
    case pollEnded
    /// The account has voted in it already (Mastodon takes one vote per account).
    case alreadyVoted
    /// A choice is not one of the poll's options (counted from 1 here, as the person typed it).
    case noSuchChoice(Int, options: Int)
    /// Several choices for a poll that takes one.
    case oneChoiceOnly
    /// The post has a poll, which an edit through this API would replace, losing its votes.
    case editWouldResetPoll
    /// The post was written by someone else: only its author can edit it. Servers refuse it in
    /// words of their own (Mastodon 403; Takahē 401, which reads as a revoked token), so it is
    /// refused before the request.
    case notYours

    public var description: String {
        switch self {
        case .noPoll: "the post has no poll; nothing was sent."
        case .pollEnded: "the poll has ended; nothing was sent."
        case .alreadyVoted: "you have voted in this poll already (a vote cannot be changed); nothing was sent."
        case let .noSuchChoice(choice, options): "the poll has \(options) options, numbered 1 to \(options) as `show` lists them: \(choice) is not one; nothing was sent."
        case .oneChoiceOnly: "the poll takes one choice; give one number. Nothing was sent."
        case .editWouldResetPoll: "the post has a poll, and an edit would reset its votes; edit it in your server's web app. Nothing was changed."
        case .notYours: "the post is not yours: only its author can edit it. Nothing was sent."
        }
    }
}
