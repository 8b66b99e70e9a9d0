#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// Everything a person set about what they do not want to see (issue 34): muted and blocked
/// accounts, muted words and their server filters' keywords, hidden posts, and their choices about
/// moderation labels. Read from each account's server at sync (Mastodon's v2 filters, mutes and
/// blocks; Bluesky's preferences), changed here by `mute`, `block` and their undo, and stored per
/// account (`TimelineStore.moderationRules(account:)`); the rules of all accounts together decide.
///
/// Applied when a message is written, never when it is painted: the verdict is stored with the
/// message, and a change of rules rewrites the verdicts it can change.
///
/// The muted words and label choices are compiled at the first verdict after they change
/// (``MutedWordMatcher``), so that a verdict costs a pass over the message and hash lookups,
/// not a look at every word: keep one value for many verdicts, as a transaction does.
public struct ModerationRules: Sendable, Hashable, Codable {
    /// Accounts muted, by their stored `User.id`, with when the mute ends (`nil`: never).
    public var mutedAccounts: [String: Date?]
    /// Accounts blocked, by their stored `User.id`.
    public var blockedAccounts: Set<String>
    /// Words and phrases muted, and the keywords of server filters.
    public var mutedWords: [MutedWord] { didSet { compiled = CompiledRules() } }
    /// Posts the person hid, by their stored `Message.id` (Bluesky's `#hiddenPostsPref`).
    public var hiddenPosts: Set<String>
    /// What to do with each moderation label.
    public var labels: LabelPreferences { didSet { compiled = CompiledRules() } }
    /// The accounts the person follows, by stored `User.id`, where a rule depends on it: a muted
    /// word that excludes them (Bluesky's `actorTarget` `exclude-following`) is not applied to
    /// their messages. Filled at a Bluesky sync from the account's follows when one of its muted
    /// words excludes them (`app.bsky.graph.getFollows`; empty otherwise: nothing reads it).
    public var following: Set<String>
    /// The filters of each server whose filters a sync read (Mastodon's `GET /api/v2/filters`), by
    /// stored ID (`authority/id`), with when each ends (`nil`: never).
    public var serverFilters: [String: Date?]
    /// The servers (`ServerAddress.authority`) whose filters were read: there, a message's
    /// `filtered` result of a filter since deleted, or expired, no longer counts.
    public var serverFiltersRead: Set<String>
    /// The words and label choices compiled, made at the first verdict after a change.
    private var compiled = CompiledRules()

    public init(mutedAccounts: [String: Date?] = [:], blockedAccounts: Set<String> = [], mutedWords: [MutedWord] = [],
                hiddenPosts: Set<String> = [], labels: LabelPreferences = LabelPreferences(),
                following: Set<String> = [], serverFilters: [String: Date?] = [:], serverFiltersRead: Set<String> = []) {
        self.mutedAccounts = mutedAccounts
        self.blockedAccounts = blockedAccounts
        self.mutedWords = mutedWords
        self.hiddenPosts = hiddenPosts
        self.labels = labels
        self.following = following
        self.serverFilters = serverFilters
        self.serverFiltersRead = serverFiltersRead
    }

    private enum CodingKeys: String, CodingKey {
        case mutedAccounts, blockedAccounts, mutedWords, hiddenPosts, labels, following, serverFilters, serverFiltersRead
    }

    /// Reads rules written by any version: a field it lacks is empty.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        mutedAccounts = try container.decodeIfPresent([String: Date?].self, forKey: .mutedAccounts) ?? [:]
        blockedAccounts = try container.decodeIfPresent(Set<String>.self, forKey: .blockedAccounts) ?? []
        mutedWords = try container.decodeIfPresent([MutedWord].self, forKey: .mutedWords) ?? []
        hiddenPosts = try container.decodeIfPresent(Set<String>.self, forKey: .hiddenPosts) ?? []
        labels = try container.decodeIfPresent(LabelPreferences.self, forKey: .labels) ?? LabelPreferences()
        following = try container.decodeIfPresent(Set<String>.self, forKey: .following) ?? []
        serverFilters = try container.decodeIfPresent([String: Date?].self, forKey: .serverFilters) ?? [:]
        serverFiltersRead = try container.decodeIfPresent(Set<String>.self, forKey: .serverFiltersRead) ?? []
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(mutedAccounts, forKey: .mutedAccounts)
        try container.encode(blockedAccounts, forKey: .blockedAccounts)
        try container.encode(mutedWords, forKey: .mutedWords)
        try container.encode(hiddenPosts, forKey: .hiddenPosts)
        try container.encode(labels, forKey: .labels)
        try container.encode(following, forKey: .following)
        try container.encode(serverFilters, forKey: .serverFilters)
        try container.encode(serverFiltersRead, forKey: .serverFiltersRead)
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.mutedAccounts == rhs.mutedAccounts && lhs.blockedAccounts == rhs.blockedAccounts
            && lhs.mutedWords == rhs.mutedWords && lhs.hiddenPosts == rhs.hiddenPosts && lhs.labels == rhs.labels
            && lhs.following == rhs.following && lhs.serverFilters == rhs.serverFilters
            && lhs.serverFiltersRead == rhs.serverFiltersRead
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(mutedAccounts)
        hasher.combine(blockedAccounts)
        hasher.combine(mutedWords)
        hasher.combine(hiddenPosts)
        hasher.combine(labels)
        hasher.combine(following)
        hasher.combine(serverFilters)
        hasher.combine(serverFiltersRead)
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
            merged.serverFilters.merge(rules.serverFilters) { first, _ in first }
            merged.serverFiltersRead.formUnion(rules.serverFiltersRead)
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
        for match in facts.filterMatches where filterCounts(match, now: now) {
            switch match.action {
            case .hide: return .hidden(reason: "Filtered: " + match.title)
            case .warn: verdict = verdict.combined(with: .collapsed(reason: "Filtered: " + match.title))
            case .blur: break
            }
        }
        let (matcher, labelIndex) = compiled.rules(words: mutedWords, labels: labels)
        let words = matcher.verdict(for: message, authorFollowed: following.contains(message.authorID), now: now)
        if case .hidden = words { return words }
        verdict = verdict.combined(with: words)
        return verdict.combined(with: labels.verdict(for: facts.labels, authorID: message.authorID, index: labelIndex))
    }
}

extension ModerationRules {
    /// Whether a `filtered` result still counts at `now`: always, unless its server's filters
    /// were read and the filter is no longer among them, or has expired.
    func filterCounts(_ match: FilterMatch, now: Date) -> Bool {
        guard let id = match.filterID, let slash = id.firstIndex(of: "/"),
              serverFiltersRead.contains(String(id[..<slash])) else { return true }
        guard let filter = serverFilters[id] else { return false }
        return filter.map { $0 > now } ?? true
    }
}

/// The muted words and label choices of one ``ModerationRules`` compiled, once: the first verdict
/// compiles them, the next ones use them. A change of the words or the labels replaces the box
/// (so copies of the rules made before keep theirs).
private final class CompiledRules: Sendable {
    private let compiled = Mutex<(MutedWordMatcher, LabelPreferences.Index)?>(nil)

    /// The matcher of `words` and the index of `labels`, compiled at the first call.
    func rules(words: [MutedWord], labels: LabelPreferences) -> (MutedWordMatcher, LabelPreferences.Index) {
        compiled.withLock { compiled in
            if let compiled { return compiled }
            let made = (MutedWordMatcher(words), labels.index())
            compiled = made
            return made
        }
    }
}
