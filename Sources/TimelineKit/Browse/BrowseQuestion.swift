/// What `timeline browse` does about an entry's author once the person said yes (issue 34):
/// `M` mutes them, `B` blocks them, `R` reports the post to its server's moderators.
package enum BrowseModeration: Sendable, Hashable {
    case mute
    case block
    case report(ReportReason)
}

/// A question on the status line that waits for its answer before anything is sent: the keys
/// that act on an account, or report a post, ask first, as a mistyped key must not mute a friend.
///
/// `y` answers yes (a report: with the reason `other`, as `timeline report` takes by default;
/// `s` spam, `v` violation); every other key answers no and sends nothing.
package struct BrowseQuestion: Sendable, Hashable {
    /// What a yes does.
    package enum Kind: Sendable, Hashable {
        case mute, block, report
    }

    package var kind: Kind
    /// The stored ID of the post acted on: for a boost, the post it boosts.
    package var messageID: String
    /// The account asked about, as the status line names it (`@alice@example.social`), neutralised.
    package var author: String
    /// The post as the status line names it (its short reference, else its ID), neutralised.
    package var post: String

    /// The question, as the status line shows it.
    package var prompt: String {
        switch kind {
        case .mute: "mute \(author)? Their posts leave your timeline. y/n"
        case .block: "block \(author)? Neither of you sees the other. y/n"
        case .report: "report \(post) by \(author) to its moderators? s spam · v violation · y other · n no"
        }
    }

    /// What `key` answers: the moderation to do, or `nil` for no.
    package func answer(_ key: BrowseKey) -> BrowseModeration? {
        switch (kind, key) {
        case (.mute, .character("y")), (.mute, .character("Y")): .mute
        case (.block, .character("y")), (.block, .character("Y")): .block
        case (.report, .character("y")), (.report, .character("Y")), (.report, .character("o")): .report(.other)
        case (.report, .character("s")): .report(.spam)
        case (.report, .character("v")): .report(.violation)
        default: nil
        }
    }

    /// The status line after a no.
    package var declined: String {
        switch kind {
        case .mute: "not muted: nothing was sent"
        case .block: "not blocked: nothing was sent"
        case .report: "not reported: nothing was sent"
        }
    }
}
