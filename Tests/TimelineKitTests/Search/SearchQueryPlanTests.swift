import Foundation
import Testing
@testable import TimelineKit

/// Every search term is answered by an index, whatever the script, in both ways of reading the
/// matches: fetched by rowid from the index's answer (few matches), or found by walking the
/// timeline index and asking the search index about each message (many), never by scanning the
/// messages table or sorting the walk; 1- and 2-character terms of spaceless scripts read a
/// range of the trigram vocabulary, not all of it.
@Suite struct SearchQueryPlanTests {
    private let directory = TemporaryDirectory()

    private func plan(_ query: String, unreadOnly: Bool = false, authorIDs: [String]? = nil,
                      order: SearchStatement.Order = .sortingMatches) throws -> [String] {
        try plan(SearchStatement(query: try SearchQuery(query), authorIDs: authorIDs.map(SQLiteJSONArray.init),
                                 unreadOnly: unreadOnly, order: order, limit: 20))
    }

    private func plan(_ search: SearchStatement) throws -> [String] {
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1, text: "今日は天気がいい coffee #swift")])
        let connection = try SQLiteConnection(path: store.path, mode: .readWrite)
        let statement = try connection.statement("EXPLAIN QUERY PLAN " + search.sql)
        try search.bind(to: statement)
        var details: [String] = []
        while try statement.step() { details.append(statement.text(at: 3)) }
        statement.reset()
        return details
    }

    private func expectReachedByRowid(_ details: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(details.contains("SEARCH m USING INTEGER PRIMARY KEY (rowid=?)"), "plan: \(details)", sourceLocation: sourceLocation)
        #expect(!details.contains { $0 == "SCAN m" || $0.hasPrefix("SCAN m ") }, "plan: \(details)", sourceLocation: sourceLocation)
    }

    private func expectTimelineWalk(_ details: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(details.contains { $0.hasPrefix("SCAN m USING INDEX messages_by_time") || $0.hasPrefix("SCAN m USING COVERING INDEX messages_by_time") },
                "plan: \(details)", sourceLocation: sourceLocation)
        #expect(!details.contains { $0.contains("TEMP B-TREE") }, "plan: \(details)", sourceLocation: sourceLocation)
    }

    @Test func fewMatchesOfWordsAreFetchedByRowidFromPhraseQueries() throws {
        let details = try plan("coffee \"good morning\" perf*")
        expectReachedByRowid(details)
        // ":M" is FTS5's MATCH constraint: the index answers it.
        #expect(details.filter { $0.contains("SCAN messages_search VIRTUAL TABLE INDEX 0:M") }.count == 3, "plan: \(details)")
    }

    @Test func longSpacelessTermsAreTrigramMatches() throws {
        let details = try plan("天気がいい")
        expectReachedByRowid(details)
        #expect(details.contains { $0.contains("SCAN messages_search_unspaced VIRTUAL TABLE INDEX 0:M") }, "plan: \(details)")
    }

    @Test func shortSpacelessTermsReadARangeOfTheTrigramVocabulary() throws {
        for query in ["天気", "天"] {
            let details = try plan(query)
            expectReachedByRowid(details)
            // fts5vocab's index number 6 = a lower and an upper bound on `term`: a range, not a scan.
            #expect(details.contains { $0.contains("SCAN messages_search_unspaced_terms VIRTUAL TABLE INDEX 6:") }, "\(query) plan: \(details)")
        }
    }

    @Test func filtersAndExclusionsDoNotChangeHowFewMatchesAreReached() throws {
        let details = try plan("coffee -tea #swift OR 天気", unreadOnly: true, authorIDs: ["u1"])
        expectReachedByRowid(details)
        #expect(!details.contains { $0.contains("VIRTUAL TABLE INDEX 0:") && !$0.contains(":M") }, "plan: \(details)")
    }

    @Test func manyMatchesAreFoundByWalkingTheTimelineAgainstSetsBuiltOnce() throws {
        let details = try plan("coffee -tea 天気がいい perf* 天気", unreadOnly: true, authorIDs: ["u1"], order: .walkingTimeline)
        expectTimelineWalk(details)
        #expect(details.filter { $0.hasPrefix("LIST SUBQUERY") }.count == 5, "plan: \(details)")
        // The only correlated subqueries are the read state's primary-key lookups: the `--unread`
        // test of each message walked, and the read flag of each result.
        #expect(details.filter { $0.contains("CORRELATED") }.count == 2, "plan: \(details)")
        #expect(details.filter { $0.contains("unread_messages") }.allSatisfy { $0.contains("INTEGER PRIMARY KEY") }, "plan: \(details)")
        // The 2-character term is tested on the text: no vocabulary range per query.
        #expect(!details.contains { $0.contains("messages_search_unspaced_terms") }, "plan: \(details)")
    }

    /// Issue 28: in a window of the newest messages, each index is asked for the window's rowid
    /// range only (FTS5 reads that part of its doclists), and the walk stays on the timeline index.
    @Test func aWindowAsksEachIndexForItsRowidRangeOnly() throws {
        let details = try plan(SearchStatement(query: try SearchQuery("coffee -tea 天気がいい perf*"), authorIDs: nil,
                                               unreadOnly: false, order: .walkingTimeline, limit: 20, rowids: 100...200))
        expectTimelineWalk(details)
        let indexes = details.filter { $0.contains("VIRTUAL TABLE INDEX") }
        #expect(indexes.count == 4, "plan: \(details)")
        // FTS5's plan string: M for MATCH, then > and < for the rowid's lower and upper bounds.
        #expect(indexes.allSatisfy { $0.contains(":M") && $0.contains(">") && $0.contains("<") }, "plan: \(details)")
    }

    @Test func matchesAreCountedInTheirIndexAlone() throws {
        for query in ["coffee", "天気", "天気がいい", "perf*"] {
            let term = try #require(try SearchQuery(query).clauses.first?.first)
            let details = try plan(SearchStatement(countingMatchesOf: term, upTo: 1001))
            #expect(details.allSatisfy { !$0.contains("messages ") && $0 != "SCAN m" }, "\(query) plan: \(details)")
            #expect(details.contains { $0.contains(":M") || $0.contains("INDEX 6:") }, "\(query) plan: \(details)")
        }
    }

    @Test func theEndOfTransactionIndexingReadsOnlyThePendingMessages() throws {
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...50))
        let connection = try SQLiteConnection(path: store.path, mode: .readWrite)
        try SearchIndexBatch.prepare(connection)
        let statements = SearchIndexBatch.finish.split(separator: ";").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        #expect(statements.count == 6)
        for sql in statements where !sql.hasPrefix("DELETE") {
            let statement = try connection.statement("EXPLAIN QUERY PLAN " + sql)
            var details: [String] = []
            while try statement.step() { details.append(statement.text(at: 3)) }
            statement.reset()
            #expect(!details.contains { $0 == "SCAN m" || $0.hasPrefix("SCAN m ") || $0.hasPrefix("SCAN messages ") || $0 == "SCAN messages" },
                    "\(sql): \(details)")
        }
    }
}
