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
    /// One filter as the server sent it, in the server's own IDs (which `DELETE` needs).
    public struct Filter: Sendable, Hashable {
        /// One keyword of a filter.
        public struct Keyword: Sendable, Hashable {
            /// The keyword's ID on the server, where it sent one (`DELETE /api/v2/filters/keywords/:id`).
            public var id: String?
            public var keyword: String
            public var wholeWord: Bool
        }

        /// The filter's ID on the server.
        public var id: String
        public var title: String
        public var contexts: [String]
        /// `filter_action`; an unknown one is `warn`, a missing one too (Mastodon's default).
        public var action: FilterAction
        public var expiresAt: Date?
        /// Its keywords, empty ones left out, at most ``MastodonFilters/maximumKeywords``.
        public var keywords: [Keyword]
    }

    /// Every filter of the answer, whatever its context, in the server's order.
    public var all: [Filter] = []
    /// The keywords of the filters of `home`, as muted words, namespaced filter IDs included.
    public var words: [MutedWord] = []
    /// Every filter, by namespaced ID, with when it ends.
    public var filters: [String: Date?] = [:]
    /// How many filters and keywords were left out by the limits.
    public var leftOut = 0

    /// The most filters read: a person has tens; a server sending more is not believed further.
    public static let maximumFilters = 1_000
    /// The most keywords read of one filter: as many as a person may mute in all.
    public static let maximumKeywords = MutedWord.maximumCount

    public init() {}

    /// Reads the answer of `GET /api/v2/filters` (an array of filters) of the server of
    /// `namespace`: the one reader of it, for the sync's rules and for `mute --word`,
    /// `unmute --word` and `muted` alike.
    init(_ document: JSONNode, namespace: MastodonNamespace) throws(JSONLineFailure) {
        let elements = try document.elements(expected: "an array of filters")
        leftOut += max(0, elements.count - Self.maximumFilters)
        var words: [MutedWord] = []
        for (index, element) in elements.prefix(Self.maximumFilters).enumerated() {
            let filter = try readFilter(element, path: "[\(index)]")
            all.append(filter)
            let id = namespace.id(filter.id)
            filters[id] = filter.expiresAt
            guard filter.contexts.contains("home") else { continue }
            let title = String(filter.title.prefix(MutedWord.maximumTitleLength))
            for keyword in filter.keywords {
                words.append(MutedWord(value: keyword.keyword, targetsText: true, targetsTags: false, wholeWord: keyword.wholeWord,
                                       expiresAt: filter.expiresAt, action: filter.action, title: title, filterID: id))
            }
        }
        let (kept, dropped) = MutedWord.bounded(words)
        self.words = kept
        leftOut += dropped
    }

    /// One `Filter` object of the answer.
    private mutating func readFilter(_ element: JSONNode, path: String) throws(JSONLineFailure) -> Filter {
        let view = try JSONObjectView(element, path: path, expected: "a filter object")
        var expiresAt: Date?
        if let expiry = try view.rfc3339Time("expires_at") { expiresAt = MillisecondTime.date(fromMilliseconds: expiry) }
        let contexts = (try view.array("context", expected: "an array of filter contexts") ?? []).compactMap(\.stringValue)
        let action = try view.string("filter_action").map { FilterAction(rawValue: $0) ?? .warn } ?? .warn
        var keywords: [Filter.Keyword] = []
        let nodes = try view.array("keywords", expected: "an array of filter keywords") ?? []
        leftOut += max(0, nodes.count - Self.maximumKeywords)
        for (keywordIndex, node) in nodes.prefix(Self.maximumKeywords).enumerated() {
            let keyword = try JSONObjectView(node, path: view.path("keywords[\(keywordIndex)]"), expected: "a filter keyword object")
            guard let value = try keyword.string("keyword"), !value.isEmpty else { continue }
            keywords.append(Filter.Keyword(id: try keyword.id("id"), keyword: value, wholeWord: try keyword.bool("whole_word") ?? true))
        }
        return Filter(id: try view.requiredID("id"), title: try view.string("title") ?? "", contexts: contexts, action: action,
                      expiresAt: expiresAt, keywords: keywords)
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
