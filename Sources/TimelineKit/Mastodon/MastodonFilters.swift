#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The person's filters on a Mastodon server (`GET /api/v2/filters`, Mastodon 4.0 and later),
/// read at each sync so that their keywords hide or collapse what is already stored too, not
/// only the statuses the server marks `filtered` as it sends them (issue 34).
///
/// Each `Filter` (`id`, `title`, `context`, `expires_at`, `filter_action`, `keywords` with
/// `keyword` and `whole_word`) whose `context` holds `home` gives a ``MutedWord`` per keyword,
/// with the filter's title (painted `Filtered: TITLE`), action (an unknown one is `warn`) and
/// expiry. A filter of other contexts only (`notifications`, `public`, `thread`, `account`) gives
/// none: a message is stored once and hidden everywhere or nowhere, and a filter the person
/// made for their notifications must not empty their home timeline; the server's `filtered`
/// results still apply it to what is read in its context (``MastodonDecoder/filterContext``).
/// Keywords are literal, never patterns, and match as ``MutedWordMatcher`` says (`whole_word`).
///
/// Every filter's ID and expiry, whatever its context, is kept (``ModerationRules/serverFilters``):
/// a `filtered` result of a filter the person since deleted stops counting.
public struct MastodonFilters: Sendable, Hashable {
    /// The keywords of the filters of `home`, as muted words, namespaced filter IDs included.
    public var words: [MutedWord] = []
    /// Every filter, by namespaced ID, with when it ends.
    public var filters: [String: Date?] = [:]
    /// How many filters and keywords were left out by the limits.
    public var leftOut = 0

    /// The most filters read: a person has tens; a server sending more is not believed further.
    public static let maximumFilters = 1_000

    public init() {}

    /// Reads the answer of `GET /api/v2/filters` (an array of filters) of the server of `namespace`.
    init(_ document: JSONNode, namespace: MastodonNamespace) throws(JSONLineFailure) {
        guard let elements = document.arrayValue else {
            throw JSONLineFailure(offset: document.offset, field: nil, problem: .wrongType(expected: "an array of filters", found: document.found))
        }
        leftOut += max(0, elements.count - Self.maximumFilters)
        var words: [MutedWord] = []
        for (index, element) in elements.prefix(Self.maximumFilters).enumerated() {
            let filter = try JSONObjectView(element, path: "[\(index)]", expected: "a filter object")
            let id = namespace.id(try filter.requiredID("id"))
            var expiresAt: Date?
            if let expiry = try filter.rfc3339Time("expires_at") { expiresAt = MillisecondTime.date(fromMilliseconds: expiry) }
            filters[id] = expiresAt
            let contexts = (try filter.array("context", expected: "an array of filter contexts") ?? []).compactMap(\.stringValue)
            guard contexts.contains("home") else { continue }
            let title = String((try filter.string("title") ?? "").prefix(MutedWord.maximumTitleLength))
            let action = try filter.string("filter_action").map { FilterAction(rawValue: $0) ?? .warn } ?? .warn
            for (keywordIndex, node) in (try filter.array("keywords", expected: "an array of filter keywords") ?? []).enumerated() {
                let keyword = try JSONObjectView(node, path: filter.path("keywords[\(keywordIndex)]"), expected: "a filter keyword object")
                guard let value = try keyword.string("keyword"), !value.isEmpty else { continue }
                words.append(MutedWord(value: value, targetsText: true, targetsTags: false, wholeWord: try keyword.bool("whole_word") ?? true,
                                       expiresAt: expiresAt, action: action, title: title, filterID: id))
            }
        }
        let (kept, dropped) = MutedWord.bounded(words)
        self.words = kept
        leftOut += dropped
    }

    /// `rules` with these filters of the server `authority` in place of those read before:
    /// words of other servers' filters, and words and accounts put there otherwise, are kept.
    public func apply(to rules: inout ModerationRules, authority: String) {
        let prefix = authority + "/"
        rules.mutedWords = rules.mutedWords.filter { $0.filterID?.hasPrefix(prefix) != true } + words
        rules.serverFilters = rules.serverFilters.filter { !$0.key.hasPrefix(prefix) }.merging(filters) { _, new in new }
        rules.serverFiltersRead.insert(authority)
    }
}
