import Testing
@testable import TimelineKit

/// Every search term is answered by an index, whatever the script: the messages are reached by
/// rowid from the index's answer, never by scanning the messages table, and the 1- and
/// 2-character terms of spaceless scripts read a range of the trigram vocabulary, not all of it.
@Suite struct SearchQueryPlanTests {
    private func plan(_ query: String, unreadOnly: Bool = false, authorIDs: [String]? = nil,
                      order: SearchStatement.Order = .sortingMatches, counting: Bool = false) throws -> [String] {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1, text: "今日は天気がいい coffee #swift")])
        let connection = try SQLiteConnection(path: store.path, mode: .readWrite)
        let search = SearchStatement(query: try SearchQuery(query), authorIDs: authorIDs.map(SQLiteJSONArray.init),
                                     unreadOnly: unreadOnly, order: order, limit: 20, countingUpTo: counting ? 1001 : nil)
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

    @Test func wordsArePhraseQueriesOnTheWordIndex() throws {
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

    @Test func manyMatchesAreFoundByWalkingTheTimelineIndexWithoutSorting() throws {
        for query in ["coffee -tea", "天気", "天気がいい #swift"] {
            let details = try plan(query, unreadOnly: true, order: .walkingTimeline)
            #expect(details.contains { $0.hasPrefix("SCAN m USING INDEX messages_by_time") || $0.hasPrefix("SCAN m USING COVERING INDEX messages_by_time") },
                    "\(query) plan: \(details)")
            #expect(!details.contains { $0.contains("TEMP B-TREE") }, "\(query) plan: \(details)")
            #expect(!details.contains { $0.contains("VIRTUAL TABLE INDEX 0:") && !$0.contains(":M") }, "\(query) plan: \(details)")
        }
    }

    @Test func countingMatchesReachesThemByRowid() throws {
        expectReachedByRowid(try plan("coffee 天気", counting: true))
    }

    @Test func filtersAndExclusionsDoNotChangeHowRowsAreReached() throws {
        let details = try plan("coffee -tea #swift OR 天気", unreadOnly: true, authorIDs: ["u1"])
        expectReachedByRowid(details)
        #expect(!details.contains { $0.contains("SCAN messages_search_unspaced_terms VIRTUAL TABLE INDEX 0:") }, "plan: \(details)")
    }
}
