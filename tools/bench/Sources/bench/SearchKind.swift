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
    ///
    /// Walking, TimelineKit keeps first to the newest `window` messages (`TimelineWindow`): the
    /// matches are asked for that window's rowid range, and the answer holds when its last row
    /// lies in the window, which the script checks the same way (the bench's data sets follow
    /// time, so the first window always holds the page; a script that needed the next window
    /// would find other IDs than the tool, and the cross-check would fail the run).
    func matchingStatement(walking: Bool, columns: String) -> String {
        var conditions: [String] = []
        let rowid = walking ? "+m.rowid" : "m.rowid"
        let range = walking ? " AND rowid >= (SELECT lo FROM temp.window) AND rowid <= (SELECT hi FROM temp.window)" : ""
        if walking { conditions.append("+m.rowid BETWEEN (SELECT lo FROM temp.window) AND (SELECT hi FROM temp.window)") }
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
                conditions.append("\(rowid) IN (SELECT rowid FROM messages_search_unspaced WHERE messages_search_unspaced MATCH \(ShellPeer.literal(expression))\(range))")
            case let .words(expression):
                conditions.append("\(rowid) IN (SELECT rowid FROM messages_search WHERE messages_search MATCH \(ShellPeer.literal(expression))\(range))")
            case let .hashtag(word):
                conditions.append("\(rowid) IN (SELECT rowid FROM messages_search WHERE messages_search MATCH \(ShellPeer.literal("\"\(word)\""))\(range))")
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
        let matches = counts.min() ?? 0
        if matches > Self.sortingLimit { return true }
        // TimelineKit walks too when the first window should hold four pages of evenly spread
        // matches (`TimelineStore.search`).
        let total = try queue.read { db in try Int.fetchOne(db, sql: "SELECT message_count FROM timeline_state") ?? 0 }
        return total > 0 && Double(matches) * Double(min(Self.window, total)) / Double(total) >= Double(4 * max(1, limit))
    }

    /// TimelineKit's first window (`TimelineWindow.sizes`).
    static let window = 4_096

    /// The first window's rowid range into `temp.window` (lo, hi), as `TimelineWindow` reads it.
    static let windowStatement = """
        CREATE TEMP TABLE window AS SELECT min(w.rowid) AS lo, max(w.rowid) AS hi, count(*) AS n
        FROM (SELECT m.rowid FROM messages AS m ORDER BY m.created_at DESC, m.id DESC LIMIT \(window)) AS w;
        """

    /// `TimelineWindow.holds`: the page's last message lies in the window (printed: 1).
    static let windowCheck = """
        SELECT EXISTS (SELECT 1 FROM messages AS e WHERE e.id = (SELECT id FROM temp.page ORDER BY created_at ASC, id ASC LIMIT 1)
            AND (e.created_at, e.id) >= (SELECT m.created_at, m.id FROM messages AS m ORDER BY m.created_at DESC, m.id DESC LIMIT 1 OFFSET \(window - 1)));
        """

    /// The whole script: the counts, the page into a temporary table, printed, then the related
    /// messages and the users.
    func script(walking: Bool) -> String {
        countingStatements.map { $0 + ";\n" }.joined() + (walking ? "SELECT message_count FROM timeline_state;\n" + Self.windowStatement + "\n" : "") + """
            CREATE TEMP TABLE page AS \(matchingStatement(walking: walking, columns: ShellPeer.messageSelect));
            SELECT * FROM temp.page;
            \(walking ? Self.windowCheck : "")
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
        let statement = (walking ? Self.windowStatement + "\n" : "") + matchingStatement(walking: walking, columns: "m.id")
        let result = try Runner.capture([ShellPeer.shell, "-batch", database, statement])
        guard result.status == 0 else { throw BenchError("sqlite3 search \(kind.query): \(result.errors)") }
        return result.output.split(separator: "\n").map(String.init)
    }
}
