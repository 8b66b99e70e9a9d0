#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Everything a person set about what they do not want to see (issue 34): muted and blocked
/// accounts, muted words and their server filters' keywords, hidden posts, and their choices about
/// moderation labels. Read from each account's server at sync (Mastodon's v2 filters, mutes and
/// blocks; Bluesky's preferences), changed here by `mute`, `block` and their undo, and stored per
/// account (`TimelineStore.moderationRules(account:)`); the rules of all accounts together decide.
///
/// Applied when a message is written, never when it is painted: the verdict is stored with the
/// message, and a change of rules rewrites the verdicts it can change.
public struct ModerationRules: Sendable, Hashable, Codable {
    /// Accounts muted, by their stored `User.id`, with when the mute ends (`nil`: never).
    public var mutedAccounts: [String: Date?]
    /// Accounts blocked, by their stored `User.id`.
    public var blockedAccounts: Set<String>
    /// Words and phrases muted, and the keywords of server filters.
    public var mutedWords: [MutedWord]
    /// Posts the person hid, by their stored `Message.id` (Bluesky's `#hiddenPostsPref`).
    public var hiddenPosts: Set<String>
    /// What to do with each moderation label.
    public var labels: LabelPreferences
    /// The accounts the person follows, by stored `User.id`, where a rule depends on it (a muted
    /// word's `excludesFollowing`).
    public var following: Set<String> = []

    public init(mutedAccounts: [String: Date?] = [:], blockedAccounts: Set<String> = [], mutedWords: [MutedWord] = [],
                hiddenPosts: Set<String> = [], labels: LabelPreferences = LabelPreferences()) {
        self.mutedAccounts = mutedAccounts
        self.blockedAccounts = blockedAccounts
        self.mutedWords = mutedWords
        self.hiddenPosts = hiddenPosts
        self.labels = labels
    }

    /// No rule at all.
    public static let none = ModerationRules()

    /// Drops the mutes and words that have ended by `now`.
    public mutating func removeExpired(at now: Date) {
        mutedAccounts = mutedAccounts.filter { _, end in end.map { $0 > now } ?? true }
        mutedWords.removeAll { !$0.isActive(at: now) }
    }

    /// Whether no rule is set (the label defaults still apply to labelled messages).
    public var isEmpty: Bool {
        mutedAccounts.isEmpty && blockedAccounts.isEmpty && mutedWords.isEmpty && hiddenPosts.isEmpty
    }

    /// The rules of several accounts as one: a person who muted a word on one server does not
    /// want it on the other.
    public static func merged(_ all: some Sequence<ModerationRules>) -> ModerationRules {
        var merged = ModerationRules()
        for rules in all {
            merged.mutedAccounts.merge(rules.mutedAccounts) { first, second in
                guard let first, let second else { return nil }
                return max(first, second)
            }
            merged.blockedAccounts.formUnion(rules.blockedAccounts)
            merged.mutedWords += rules.mutedWords
            merged.hiddenPosts.formUnion(rules.hiddenPosts)
            merged.labels.merge(rules.labels)
            merged.following.formUnion(rules.following)
        }
        return merged
    }

    /// What the rules make of `message` at `now`, given what its server said of it (`facts`) and,
    /// for a repost, the author of the message it reposts.
    public func verdict(for message: Message, facts: ModerationFacts, repostedAuthorID: String? = nil,
                        now: Date) -> ModerationVerdict {
        if blockedAccounts.contains(message.authorID) || repostedAuthorID.map(blockedAccounts.contains) == true {
            return .hidden(reason: "blocked account")
        }
        for author in [message.authorID, repostedAuthorID] {
            if let author, let mute = mutedAccounts[author], mute.map({ $0 > now }) ?? true {
                return .hidden(reason: "muted account")
            }
        }
        if hiddenPosts.contains(message.id) { return .hidden(reason: "hidden post") }
        var verdict = ModerationVerdict.shown
        for match in facts.filterMatches {
            switch match.action {
            case .hide: return .hidden(reason: "Filtered: " + match.title)
            case .warn: verdict = verdict.combined(with: .collapsed(reason: "Filtered: " + match.title))
            case .blur: break
            }
        }
        for word in mutedWords where word.isActive(at: now) && word.matches(message) {
            switch word.action {
            case .hide: return .hidden(reason: word.reason)
            case .warn: verdict = verdict.combined(with: .collapsed(reason: word.reason))
            case .blur: break
            }
        }
        return verdict.combined(with: labels.verdict(for: facts.labels))
    }
}

/// A muted word or phrase (Bluesky's `#mutedWordsPref`), or a keyword of a server filter
/// (Mastodon's v2 filters): matched case-insensitively, as a whole word or phrase unless
/// `wholeWord` is off.
public struct MutedWord: Sendable, Hashable, Codable {
    /// The word, phrase or tag (without `#`).
    public var value: String
    /// Whether it mutes the text, the tags, or both.
    public var targetsText: Bool
    public var targetsTags: Bool
    /// Whether it must match whole words (Mastodon's `whole_word`; always on for Bluesky's words
    /// in languages written with spaces).
    public var wholeWord: Bool
    /// When it stops muting (`nil`: never).
    public var expiresAt: Date?
    /// Bluesky's `actorTarget` `exclude-following`: not applied to accounts the person follows.
    public var excludesFollowing: Bool
    /// Hide, or collapse behind a warning (a Mastodon filter's `filter_action`).
    public var action: FilterAction
    /// The server filter's title, painted as the reason (`Filtered: TITLE`); `nil` for a muted word.
    public var title: String?

    public init(value: String, targetsText: Bool = true, targetsTags: Bool = true, wholeWord: Bool = true,
                expiresAt: Date? = nil, excludesFollowing: Bool = false, action: FilterAction = .hide,
                title: String? = nil) {
        self.value = value
        self.targetsText = targetsText
        self.targetsTags = targetsTags
        self.wholeWord = wholeWord
        self.expiresAt = expiresAt
        self.excludesFollowing = excludesFollowing
        self.action = action
        self.title = title
    }

    /// The reason a message it matched is hidden or collapsed with.
    public var reason: String { title.map { "Filtered: " + $0 } ?? "muted word" }

    /// Whether it still mutes at `now`.
    public func isActive(at now: Date) -> Bool { expiresAt.map { $0 > now } ?? true }

    /// Whether `message`'s text (and its content warning) holds it.
    public func matches(_ message: Message) -> Bool {
        let needle = Array(value.lowercased())
        guard !needle.isEmpty, targetsText else { return false }
        for haystack in [message.text, message.contentWarning ?? ""] where !haystack.isEmpty {
            let text = Array(haystack.lowercased())
            guard text.count >= needle.count else { continue }
            for start in 0...(text.count - needle.count) where text[start] == needle[0] {
                guard text[start..<start + needle.count].elementsEqual(needle) else { continue }
                if !wholeWord { return true }
                let end = start + needle.count
                let before = start == 0 ? nil : text[start - 1]
                let after = end == text.count ? nil : text[end]
                if !(before?.isLetter == true || before?.isNumber == true)
                    && !(after?.isLetter == true || after?.isNumber == true) {
                    return true
                }
            }
        }
        return false
    }
}

/// What the person chose for moderation labels (Bluesky's `#adultContentPref` and
/// `#contentLabelPref`), and the labels' defaults where they chose nothing.
public struct LabelPreferences: Sendable, Hashable, Codable {
    /// Whether adult content may be shown at all (off by default, as in Bluesky's app).
    public var adultContentEnabled: Bool
    /// The person's choice per label value, and per labeler where they made it for one.
    public var choices: [LabelChoice]

    public init(adultContentEnabled: Bool = false, choices: [LabelChoice] = []) {
        self.adultContentEnabled = adultContentEnabled
        self.choices = choices
    }

    mutating func merge(_ other: LabelPreferences) {
        adultContentEnabled = adultContentEnabled && other.adultContentEnabled
        choices += other.choices
    }

    /// What `labels` make of a message under these preferences.
    public func verdict(for labels: [ContentLabel]) -> ModerationVerdict {
        var verdict = ModerationVerdict.shown
        for label in labels {
            switch label.value {
            case "!hide": return .hidden(reason: "hidden by a moderator")
            case "!warn": verdict = verdict.combined(with: .collapsed(reason: "content warning"))
            default: break
            }
        }
        return verdict
    }
}

/// One choice about a label (`#contentLabelPref`): hide, warn or ignore, for every labeler or one.
public struct LabelChoice: Sendable, Hashable, Codable {
    public enum Visibility: String, Sendable, Hashable, Codable { case hide, warn, ignore }
    /// The labeler's DID, `nil` for Bluesky's own labels.
    public var labeler: String?
    /// The label's value.
    public var label: String
    public var visibility: Visibility

    public init(labeler: String? = nil, label: String, visibility: Visibility) {
        self.labeler = labeler
        self.label = label
        self.visibility = visibility
    }
}
