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
/// Two ways to read the matches newest first, chosen by `TimelineStore.search` from capped
/// counts of each term's matches in its index (`Order`): up to `sortingLimit` matches are
/// fetched by rowid and sorted (cost: about 1 µs a match); more are found by walking the
/// `messages_by_time` index newest first, testing each message against the terms' `IN` sets,
/// built once, and stopping at the limit (cost: the sets, then how far back the limit lies).
/// Those sets hold every match, so the walk first keeps to a window of the newest messages,
/// whose rowid range each index is asked for (`TimelineWindow`): a common word's newest page
/// then costs the same at 100k and 1M.
/// A 1- or 2-character spaceless term is then `instr` on the text instead of a vocabulary range
/// (lower-cased like the trigram index, except that SQLite's `lower` folds only ASCII). At 1M
/// messages, sorting the 235,000 matches of `the` took 240 ms, the walk 30 ms. Asking the index
/// per message (`EXISTS … AND rowid = m.rowid`) costs 60 µs a message: 670 ms for a phrase
/// found in 0.3% of the messages, so it is not used.
struct SearchStatement {
    /// Whether a message is unread: the one place that knows how the read state is stored.
    static let unreadCondition = "EXISTS (SELECT 1 FROM unread_messages u WHERE u.seq = m.seq)"

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
    static let sortingLimit = 30_000

    private(set) var sql = ""
    private(set) var arguments: [Argument] = []
    private let order: Order
    /// Only messages whose rowid lies here, and each index asked only for these rowids (FTS5
    /// reads a rowid range from its doclists without building the rest): see `TimelineWindow`.
    private var rowids: ClosedRange<Int64>?

    /// The statement for `query`, optionally by one author's user IDs (a JSON array) and unread
    /// only, at most `limit` rows (all of them when `nil`).
    /// With `rowids`, only the messages whose rowid lies in that range (see `TimelineWindow`).
    init(query: SearchQuery, authorIDs: SQLiteJSONArray?, unreadOnly: Bool, order: Order, limit: Int?,
         rowids: ClosedRange<Int64>? = nil) {
        self.order = order
        self.rowids = rowids
        var conditions: [String] = []
        if let rowids {
            // `+`: the timeline index, not the rowid, still decides the order of the walk.
            conditions.append("+m.rowid BETWEEN \(bind(.integer(rowids.lowerBound))) AND \(bind(.integer(rowids.upperBound)))")
        }
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
        // What the person's rules hide is never a result (issue 34).
        conditions.append("m.hidden IS NULL")
        sql = """
            SELECT \(MessageColumns.select(from: "m")) FROM messages AS m
            WHERE \(conditions.joined(separator: "\n  AND "))
            ORDER BY m.created_at DESC, m.id DESC
            """
        if let limit { sql += " LIMIT \(bind(.integer(Int64(max(0, limit)))))" }
    }

    private mutating func bind(_ argument: Argument) -> String {
        arguments.append(argument)
        return "?\(arguments.count)"
    }

    /// How many messages hold `term`, by its index alone, counted up to `cap`.
    init(countingMatchesOf term: SearchTerm, upTo cap: Int) {
        order = .sortingMatches
        let source: String
        if term.isShortUnspaced {
            let prefix = term.trigramPrefix
            source = "SELECT doc FROM messages_search_unspaced_terms WHERE term >= \(bind(.text(prefix)))"
                + " AND term < \(bind(.text(prefix + "\u{10FFFF}")))"
        } else {
            let table = term.isUnspaced ? "messages_search_unspaced" : "messages_search"
            source = "SELECT rowid FROM \(table) WHERE \(table) MATCH \(bind(.text(term.matchExpression)))"
        }
        sql = "SELECT count(*) FROM (\(source) LIMIT \(bind(.integer(Int64(cap)))))"
    }

    private mutating func condition(for term: SearchTerm, negated: Bool) -> String {
        let found = indexCondition(for: term, negated: negated)
        guard let marker = term.marker, !negated else { return found }
        // A tag or mention passes the check in Swift only where the text holds its sign: rows
        // without one stay in SQLite, never read into a message (most of what `coffee` finds
        // has no `#` at all).
        let signs = marker.scalars.map { "instr(m.text, \(bind(.text(String($0))))) > 0" }
        return "(\(found) AND (\(signs.joined(separator: " OR "))))"
    }

    private mutating func indexCondition(for term: SearchTerm, negated: Bool) -> String {
        let table = term.isUnspaced ? "messages_search_unspaced" : "messages_search"
        if order == .walkingTimeline {
            if term.isShortUnspaced {
                return "instr(lower(m.text), \(bind(.text(term.trigramPrefix)))) \(negated ? "=" : ">") 0"
            }
        }
        // `+` keeps SQLite from reaching rows by rowid when the timeline is walked.
        let rowid = order == .walkingTimeline ? "+m.rowid" : "m.rowid"
        let membership = negated ? "\(rowid) NOT IN" : "\(rowid) IN"
        if term.isShortUnspaced {
            let prefix = term.trigramPrefix
            return "\(membership) (SELECT doc FROM messages_search_unspaced_terms WHERE term >= \(bind(.text(prefix)))"
                + " AND term < \(bind(.text(prefix + "\u{10FFFF}"))))"
        }
        var range = ""
        if let rowids {
            range = " AND rowid >= \(bind(.integer(rowids.lowerBound))) AND rowid <= \(bind(.integer(rowids.upperBound)))"
        }
        return "\(membership) (SELECT rowid FROM \(table) WHERE \(table) MATCH \(bind(.text(term.matchExpression)))\(range))"
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
