import Foundation
import GRDB

/// One kind of query the search stages time: as a person types it, and as the terms
/// TimelineKit's `SearchQuery` parses it into, from which `ShellSearch` writes the statements
/// `timeline search` runs (`SearchStatement`), for the sqlite3 shell to run the same ones.
struct SearchKind {
    /// A term, as `SearchTerm` classifies it.
    enum Term {
        /// A word, phrase or prefix: the word index's `MATCH` of this FTS5 expression.
        case words(String)
        /// A hashtag: its word found by the word index, then the `#` checked on the text.
        case hashtag(String)
        /// A spaceless-script term of 3 code points or more: the trigram index's `MATCH`.
        case unspaced(String)
        /// A shorter one: the range of the trigram vocabulary that starts with it.
        case shortUnspaced(String)
    }

    let name: String
    let query: String
    /// All required (the kinds timed have no `OR` and no exclusion).
    let terms: [Term]

    var key: String { name.replacingOccurrences(of: " ", with: "_").replacingOccurrences(of: ",", with: "") }

    /// The kinds of stage 9, with a rare word (a number that occurs once) from the data set.
    static func all(rareWord: String) -> [SearchKind] {
        [
            SearchKind(name: "common word", query: "the", terms: [.words("\"the\"")]),
            SearchKind(name: "two words", query: "coffee morning", terms: [.words("\"coffee\""), .words("\"morning\"")]),
            SearchKind(name: "rare word", query: rareWord, terms: [.words("\"\(rareWord)\"")]),
            SearchKind(name: "phrase", query: "\"open source\"", terms: [.words("\"open source\"")]),
            SearchKind(name: "prefix", query: "perf*", terms: [.words("\"perf\" *")]),
            SearchKind(name: "hashtag", query: "#coffee", terms: [.hashtag("coffee")]),
            SearchKind(name: "CJK, 1 character", query: "猫", terms: [.shortUnspaced("猫")]),
            SearchKind(name: "CJK, 2 characters", query: "天気", terms: [.shortUnspaced("天気")]),
            SearchKind(name: "CJK, 4 characters", query: "ラーメン", terms: [.unspaced("\"ラーメン\"")]),
            SearchKind(name: "accents folded", query: "cafe", terms: [.words("\"cafe\"")]),
        ]
    }

    /// A number from a link in one of the first messages: a word that occurs about once.
    static func rareWord(_ generator: TimelineGenerator) -> String {
        for i in 0..<10_000 {
            let text = generator.message(i).text
            if let range = text.range(of: "/p/") {
                return String(text[range.upperBound...].prefix { $0.isNumber })
            }
        }
        return "benchmark"
    }
}

/// The SQL `timeline search QUERY -n LIMIT` runs for a `SearchKind`, reproduced from
/// `SearchStatement` and `TimelineStore.search`: each term's matches counted in its index up to
/// 30,001, then the matches read in timeline order (fetched and sorted when a clause has at most
/// 30,000, else by walking the timeline index), then the page completed with the messages the
/// results repost or quote and the users of all of them (`TimelineReader.completePage`).
struct ShellSearch {
    static let sortingLimit = 30_000
    let kind: SearchKind
    let limit: Int

    /// The counting statements (one per term).
    var countingStatements: [String] {
        kind.terms.map { term in
            let source: String
            switch term {
            case let .shortUnspaced(prefix):
                source = "SELECT doc FROM messages_search_unspaced_terms WHERE term >= \(ShellPeer.literal(prefix.lowercased()))"
                    + " AND term < \(ShellPeer.literal(prefix.lowercased() + "\u{10FFFF}"))"
            case let .unspaced(expression):
                source = "SELECT rowid FROM messages_search_unspaced WHERE messages_search_unspaced MATCH \(ShellPeer.literal(expression))"
            case let .words(expression):
                source = "SELECT rowid FROM messages_search WHERE messages_search MATCH \(ShellPeer.literal(expression))"
            case let .hashtag(word):
                source = "SELECT rowid FROM messages_search WHERE messages_search MATCH \(ShellPeer.literal("\"\(word)\""))"
            }
            return "SELECT count(*) FROM (\(source) LIMIT \(Self.sortingLimit + 1))"
        }
    }

    /// The statement that reads the matches; `walking` as `TimelineStore.search` decides from
    /// the counts. Hashtags: TimelineKit reads rows without a limit until `limit` pass its check
    /// of the `#` in Swift; here `LIKE` does that check in SQL.
    func matchingStatement(walking: Bool, columns: String) -> String {
        var conditions: [String] = []
        let rowid = walking ? "+m.rowid" : "m.rowid"
        for term in kind.terms {
            switch term {
            case let .shortUnspaced(prefix):
                if walking {
                    conditions.append("instr(lower(m.text), \(ShellPeer.literal(prefix.lowercased()))) > 0")
                } else {
                    conditions.append("\(rowid) IN (SELECT doc FROM messages_search_unspaced_terms WHERE term >= \(ShellPeer.literal(prefix.lowercased()))"
                        + " AND term < \(ShellPeer.literal(prefix.lowercased() + "\u{10FFFF}")))")
                }
            case let .unspaced(expression):
                conditions.append("\(rowid) IN (SELECT rowid FROM messages_search_unspaced WHERE messages_search_unspaced MATCH \(ShellPeer.literal(expression)))")
            case let .words(expression):
                conditions.append("\(rowid) IN (SELECT rowid FROM messages_search WHERE messages_search MATCH \(ShellPeer.literal(expression)))")
            case let .hashtag(word):
                conditions.append("\(rowid) IN (SELECT rowid FROM messages_search WHERE messages_search MATCH \(ShellPeer.literal("\"\(word)\"")))")
                conditions.append("m.text LIKE \(ShellPeer.literal("%#\(word)%"))")
            }
        }
        return """
            SELECT \(columns) FROM messages AS m
            WHERE \(conditions.joined(separator: "\n  AND "))
            ORDER BY m.created_at DESC, m.id DESC LIMIT \(limit)
            """
    }

    /// Whether TimelineKit walks the timeline for this query in `database`: its counts, as
    /// `TimelineStore.search` takes them (the fewest matches of any clause).
    func walks(in database: String) throws -> Bool {
        let queue = try DatabaseQueue(path: database, configuration: grdbConfiguration(readonly: true))
        defer { try? queue.close() }
        let counts = try queue.read { db in try countingStatements.map { try Int.fetchOne(db, sql: $0) ?? 0 } }
        return (counts.min() ?? 0) > Self.sortingLimit
    }

    /// The whole script: the counts, the page into a temporary table, printed, then the related
    /// messages and the users.
    func script(walking: Bool) -> String {
        countingStatements.map { $0 + ";\n" }.joined() + """
            CREATE TEMP TABLE page AS \(matchingStatement(walking: walking, columns: ShellPeer.messageSelect));
            SELECT * FROM temp.page;
            CREATE TEMP TABLE related AS SELECT \(ShellPeer.messageSelect) FROM messages AS m
                WHERE m.id IN (SELECT repost_of_id FROM temp.page UNION SELECT quote_of_id FROM temp.page)
                  AND m.id NOT IN (SELECT id FROM temp.page)
                ORDER BY m.created_at DESC, m.id DESC;
            SELECT * FROM temp.related;
            SELECT id, handle, name, url, bot FROM users WHERE id IN (
                SELECT author_id FROM temp.page UNION SELECT reply_to_user_id FROM temp.page
                UNION SELECT author_id FROM temp.related UNION SELECT reply_to_user_id FROM temp.related)
                ORDER BY id;

            """
    }

    /// The IDs the sqlite3 shell finds, in order: the cross-check of `timeline search`.
    func foundIDs(in database: String, walking: Bool) throws -> [String] {
        let result = try Runner.capture([ShellPeer.shell, "-batch", database, matchingStatement(walking: walking, columns: "m.id")])
        guard result.status == 0 else { throw BenchError("sqlite3 search \(kind.query): \(result.errors)") }
        return result.output.split(separator: "\n").map(String.init)
    }
}
