/// The SQL of one search: every term becomes a condition on the message's rowid, answered by an
/// index, and the matches are read newest first.
///
/// - A word or phrase: `rowid IN` the word index's `MATCH` of the term as a quoted string.
/// - Text in a spaceless script, 3 code points or more: the trigram index's `MATCH`, which finds
///   it as a substring.
/// - Shorter than that (`天気`, `猫`), too short for a trigram query: the rowids of the trigram
///   vocabulary's entries that start with it. The indexed text ends in two line feeds, so every
///   occurrence starts some trigram: the answer is exact, read from the index in term order.
/// - `-term`: `rowid NOT IN` the same.
///
/// Two ways to read the matches newest first, chosen by `TimelineStore.search` from a capped
/// count of the matches (`Order`): few matches are fetched by rowid and sorted (cost: the
/// matches); many are found by walking the `messages_by_time` index newest first and testing
/// each rowid against the index's answer, stopping at the limit (cost: how far back the limit
/// lies). Sorting 235,000 matches of `the` at 1M messages took 240 ms; walking, 30 ms.
struct SearchStatement {
    /// Whether a message is unread: the one place that knows how the read state is stored.
    static let unreadCondition = "m.read = 0"

    enum Argument {
        case text(String)
        case integer(Int64)
    }

    /// How the matches are read in timeline order.
    enum Order {
        /// Fetch every match by rowid, then sort: for few matches.
        case sortingMatches
        /// Walk the timeline index newest first, keeping the matches: for many.
        case walkingTimeline
    }

    /// Up to this many matches are fetched and sorted; more are found by walking the timeline.
    static let sortingLimit = 1_000

    private(set) var sql = ""
    private(set) var arguments: [Argument] = []
    private let order: Order

    /// The statement for `query`, optionally by one author's user IDs (a JSON array) and unread
    /// only, at most `limit` rows (all of them when `nil`); with `countingUpTo`, instead the
    /// number of matches, counted up to that many.
    init(query: SearchQuery, authorIDs: SQLiteJSONArray?, unreadOnly: Bool, order: Order, limit: Int?, countingUpTo cap: Int? = nil) {
        self.order = order
        var conditions: [String] = []
        for clause in query.clauses {
            let alternatives = clause.map { condition(for: $0, negated: false) }
            conditions.append(alternatives.count == 1 ? alternatives[0] : "(" + alternatives.joined(separator: " OR ") + ")")
        }
        // Excluded hashtags and mentions are left to the check in Swift: the word index would
        // exclude the plain word too.
        for term in query.exclusions where !term.needsCheck {
            conditions.append(condition(for: term, negated: true))
        }
        if let authorIDs {
            conditions.append("m.author_id IN (SELECT value FROM json_each(\(bind(.text(authorIDs.json)))))")
        }
        if unreadOnly { conditions.append(Self.unreadCondition) }
        if let cap {
            sql = """
                SELECT count(*) FROM (SELECT 1 FROM messages AS m
                WHERE \(conditions.joined(separator: "\n  AND ")) LIMIT \(bind(.integer(Int64(cap)))))
                """
            return
        }
        sql = """
            SELECT \(MessageColumns.select) FROM messages AS m
            WHERE \(conditions.joined(separator: "\n  AND "))
            ORDER BY m.created_at DESC, m.id DESC
            """
        if let limit { sql += " LIMIT \(bind(.integer(Int64(max(0, limit)))))" }
    }

    private mutating func bind(_ argument: Argument) -> String {
        arguments.append(argument)
        return "?\(arguments.count)"
    }

    private mutating func condition(for term: SearchTerm, negated: Bool) -> String {
        // `+` keeps SQLite from reaching rows by rowid, so that it walks the timeline index.
        let rowid = order == .walkingTimeline ? "+m.rowid" : "m.rowid"
        let membership = negated ? "\(rowid) NOT IN" : "\(rowid) IN"
        if term.isShortUnspaced {
            let prefix = term.trigramPrefix
            return "\(membership) (SELECT doc FROM messages_search_unspaced_terms WHERE term >= \(bind(.text(prefix)))"
                + " AND term < \(bind(.text(prefix + "\u{10FFFF}"))))"
        }
        let table = term.isUnspaced ? "messages_search_unspaced" : "messages_search"
        return "\(membership) (SELECT rowid FROM \(table) WHERE \(table) MATCH \(bind(.text(term.matchExpression))))"
    }

    /// Binds the arguments to `statement`, prepared from `sql`.
    func bind(to statement: SQLiteStatement) throws(SQLiteError) {
        for (offset, argument) in arguments.enumerated() {
            let index = Int32(offset + 1)
            switch argument {
            case let .text(value): try statement.bind(value, at: index)
            case let .integer(value): try statement.bind(value, at: index)
            }
        }
    }
}
