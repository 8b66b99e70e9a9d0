/// Why a search query cannot be run, with what to type instead.
public enum SearchQueryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The query holds no letter, digit or CJK/Thai character to look for (it is empty, or only
    /// punctuation).
    case nothingToSearch
    /// A `"` opens a phrase that no `"` closes.
    case unbalancedQuote
    /// `OR` stands at the start or end, next to another `OR`, or next to an excluded `-word`.
    case misplacedOr
    /// Every term is excluded (`-word`): there is nothing to look for.
    case onlyExclusions
    /// The query holds `count` terms, more than the `limit` one search looks for
    /// (``SearchQuery/maximumTerms``).
    case tooManyTerms(count: Int, limit: Int)

    public var description: String {
        switch self {
        case .nothingToSearch:
            "The search has no words to look for. Give at least one word, e.g. `timeline search coffee`."
        case .unbalancedQuote:
            #"The search opens a phrase with " but never closes it. Put the phrase between two double quotes ("exact words"), or remove the quote."#
        case .misplacedOr:
            "OR must stand between two words or phrases (`cats OR dogs`), and cannot join an excluded -word."
        case .onlyExclusions:
            "The search only excludes words (-word). Add a word to look for, e.g. `coffee -decaf`."
        case let .tooManyTerms(count, limit):
            "The search has \(Counted.grouped(count)) words and phrases; one search looks for at most \(limit). Keep the few that matter: a message must hold every word, so a few rare ones find it."
        }
    }
}
