/// What ``AccountSession/vote(in:choices:in:)`` did: the poll's options and how they now
/// stand, and which the account chose.
public struct PollVote: Sendable, Hashable {
    /// One option of the poll, as the server now counts it.
    public struct Option: Sendable, Hashable {
        /// Its title, plain text (untrusted: neutralise before a terminal sees it).
        public var title: String
        /// Its votes, `nil` while the server hides the counts (until the poll ends).
        public var votes: Int?

        public init(title: String, votes: Int?) {
            self.title = title
            self.votes = votes
        }
    }

    /// The stored message whose poll it is (the original, for a repost).
    public var messageID: String
    /// The options chosen, counted from 0.
    public var choices: [Int]
    /// The poll's options after the vote, in its order.
    public var options: [Option]

    public init(messageID: String, choices: [Int], options: [Option]) {
        self.messageID = messageID
        self.choices = choices
        self.options = options
    }
}
