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
struct SearchStatement {
    /// Whether a message is unread: the one place that knows how the read state is stored.
    static let unreadCondition = "m.read = 0"

    enum Argument {
        case text(String)
        case integer(Int64)
    }

    private(set) var sql = ""
    private(set) var arguments: [Argument] = []

    /// The statement for `query`, optionally by one author's user IDs (a JSON array) and unread
    /// only, older than `cursor`, at most `limit` rows.
    init(query: SearchQuery, authorIDs: SQLiteJSONArray?, unreadOnly: Bool, after cursor: TimelineCursor?, limit: Int) {
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
        if let cursor {
            conditions.append("(m.created_at, m.id) < (\(bind(.integer(cursor.createdAtMilliseconds))), \(bind(.text(cursor.id))))")
        }
        sql = """
            SELECT \(MessageColumns.select) FROM messages AS m
            WHERE \(conditions.joined(separator: "\n  AND "))
            ORDER BY m.created_at DESC, m.id DESC LIMIT \(bind(.integer(Int64(max(0, limit)))))
            """
    }

    private mutating func bind(_ argument: Argument) -> String {
        arguments.append(argument)
        return "?\(arguments.count)"
    }

    private mutating func condition(for term: SearchTerm, negated: Bool) -> String {
        let membership = negated ? "m.rowid NOT IN" : "m.rowid IN"
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
