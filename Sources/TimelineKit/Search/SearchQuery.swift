/// A search as a person types it, parsed: what `TimelineStore.search` looks for.
///
/// The language:
/// - `coffee morning`: messages holding both words (in any order); case and Latin accents do
///   not matter (`cafe` finds `Café`).
/// - `"good morning"`: the words in this order, next to each other.
/// - `cats OR dogs`: either (`OR` in capitals; it binds the two terms around it).
/// - `-decaf`: not holding the word.
/// - `sun*`: a word starting with `sun`.
/// - `#swift`, `@alice`: the hashtag or the mention (`@alice` also finds `@alice@example.social`);
///   `swift` alone finds both the word and the hashtag.
/// - Text in scripts written without spaces (Chinese, Japanese, Korean, Thai, Lao, Khmer,
///   Myanmar) is found anywhere, even inside a longer run: `天気` finds `今日は天気がいい`.
///
/// Nothing typed is passed to SQLite's FTS5 query parser as syntax: every term goes in as a
/// quoted string, so the only errors are the ones of `SearchQueryError`.
public struct SearchQuery: Sendable, Hashable, CustomStringConvertible {
    /// The query as typed.
    public let text: String
    /// Every clause must match; a clause matches when any of its terms does (`OR`).
    let clauses: [[SearchTerm]]
    /// Terms that must not match.
    let exclusions: [SearchTerm]

    /// The most terms (words, phrases, each side of an `OR`, exclusions) one search looks for.
    /// Each is a level of the statement's expression, and SQLite refuses a statement past
    /// 1,000 (SQLITE_MAX_EXPR_DEPTH): 999 words failed there. 256 is a page of text, far more
    /// than narrows a search, and every form of term runs at the bound (SearchTests).
    public static let maximumTerms = 256

    /// Parses `text`.
    ///
    /// - Throws: `SearchQueryError` when a phrase is not closed, `OR` is misplaced, or there is
    ///   nothing to look for.
    public init(_ text: String) throws(SearchQueryError) {
        self.text = text
        enum Item {
            case term(SearchTerm, negated: Bool)
            case or
        }
        var items: [Item] = []
        let characters = Array(text)
        var index = 0
        while index < characters.count {
            if characters[index].isWhitespace {
                index += 1
                continue
            }
            var negated = false
            if characters[index] == "-", index + 1 < characters.count, !characters[index + 1].isWhitespace {
                negated = true
                index += 1
            }
            if characters[index] == "\"" {
                guard let close = characters[(index + 1)...].firstIndex(of: "\"") else { throw .unbalancedQuote }
                let body = String(characters[(index + 1)..<close])
                index = close + 1
                var isPrefix = false
                while index < characters.count, characters[index] == "*" {
                    isPrefix = true
                    index += 1
                }
                if let term = SearchTerm(body: body, marker: nil, isPrefix: isPrefix) {
                    items.append(.term(term, negated: negated))
                }
                continue
            }
            var end = index
            while end < characters.count, !characters[end].isWhitespace, characters[end] != "\"" { end += 1 }
            var word = String(characters[index..<end])
            index = end
            if word == "OR", !negated {
                items.append(.or)
                continue
            }
            if word == "AND", !negated { continue }
            var isPrefix = false
            while word.hasSuffix("*") {
                isPrefix = true
                word.removeLast()
            }
            var marker: SearchTerm.Marker?
            if let first = word.unicodeScalars.first {
                if SearchTerm.Marker.hashtag.scalars.contains(first) { marker = .hashtag }
                if SearchTerm.Marker.mention.scalars.contains(first) { marker = .mention }
                if marker != nil { word.unicodeScalars.removeFirst() }
            }
            if let term = SearchTerm(body: word, marker: marker, isPrefix: isPrefix) {
                items.append(.term(term, negated: negated))
            }
        }

        var clauses: [[SearchTerm]] = []
        var exclusions: [SearchTerm] = []
        var joinsNext = false
        for (position, item) in items.enumerated() {
            switch item {
            case .or:
                guard position > 0, position < items.count - 1,
                      case .term(_, negated: false) = items[position - 1],
                      case .term(_, negated: false) = items[position + 1] else { throw .misplacedOr }
                joinsNext = true
            case let .term(term, negated):
                if negated {
                    exclusions.append(term)
                } else if joinsNext {
                    clauses[clauses.count - 1].append(term)
                } else {
                    clauses.append([term])
                }
                joinsNext = false
            }
        }
        if clauses.isEmpty { throw exclusions.isEmpty ? .nothingToSearch : .onlyExclusions }
        let count = clauses.reduce(exclusions.count) { $0 + $1.count }
        if count > Self.maximumTerms { throw .tooManyTerms(count: count, limit: Self.maximumTerms) }
        self.clauses = clauses
        self.exclusions = exclusions
    }

    /// The query as typed.
    public var description: String { text }

    /// Whether some results must be checked in Swift after the index found them (hashtags and
    /// mentions: the index holds the word, not the sign before it).
    var needsCheck: Bool {
        clauses.contains { $0.contains(where: \.needsCheck) } || exclusions.contains(where: \.needsCheck)
    }

    /// Whether `text` satisfies what the index could not decide: in every clause that holds a
    /// hashtag or mention, some term occurs; no excluded hashtag or mention occurs.
    func passesCheck(_ text: String) -> Bool {
        // The text is prepared only once a term could be in it.
        var prepared: SearchText?
        func occurs(_ term: SearchTerm) -> Bool {
            guard term.mayOccur(in: text) else { return false }
            if prepared == nil { prepared = SearchText(text) }
            return prepared.map { !term.ranges(in: $0).isEmpty } ?? false
        }
        for clause in clauses where clause.contains(where: \.needsCheck) {
            guard clause.contains(where: occurs) else { return false }
        }
        for term in exclusions where term.needsCheck {
            if occurs(term) { return false }
        }
        return true
    }

    /// Where the terms looked for occur in `text`: sorted, not overlapping, on character
    /// boundaries. For highlighting: this follows the index's rules closely but not exactly
    /// (accents outside Latin letters), so a result may have no range.
    public func matchRanges(in text: String) -> [Range<String.Index>] {
        let prepared = SearchText(text)
        return prepared.normalized(clauses.flatMap { $0.flatMap { $0.ranges(in: prepared) } })
    }
}
