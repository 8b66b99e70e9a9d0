import Foundation
import Testing
@testable import TimelineKit

/// Search finds words in every script the issue names, keeps its index right through every kind
/// of write (the sqlite3 shell's included), and turns bad queries into clear errors.
@Suite struct SearchTests {
    private let directory = TemporaryDirectory()

    /// A store holding `texts` as messages m1, m2, … (m1 oldest), by alice.
    private func store(_ texts: [String]) throws -> TimelineStore {
        let store = try Samples.store(in: directory)
        try store.upsert(messages: texts.enumerated().map { Samples.message($0.offset + 1, text: $0.element) })
        return store
    }

    private func ids(_ store: TimelineStore, _ query: String, limit: Int = 20, author: String? = nil, unreadOnly: Bool = false) throws -> [String] {
        try store.search(query, limit: limit, author: author, unreadOnly: unreadOnly).results.map(\.message.id)
    }

    /// A small threshold, so that a few hundred messages take the timeline walk.
    private static let walkAbove = 100

    /// Windows this small, so that a few hundred messages take them, and the whole timeline after.
    private static let windows = [8, 64]

    private func walkedIDs(_ store: TimelineStore, _ query: String, limit: Int = 20, unreadOnly: Bool = false) throws -> [String] {
        try store.search(try SearchQuery(query), limit: limit, author: nil, unreadOnly: unreadOnly, sortingLimit: Self.walkAbove,
                         windowSizes: Self.windows).results.map(\.message.id)
    }

    // MARK: Scripts

    @Test func latinWordsMatchWithOrWithoutAccentsAndInAnyCase() throws {
        let store = try store(["Un café, s'il vous plaît", "cafe noir", "CAFÉ CRÈME", "caffeine", "cafe\u{301} decomposed"])
        #expect(try ids(store, "cafe") == ["m5", "m3", "m2", "m1"])
        #expect(try ids(store, "café") == ["m5", "m3", "m2", "m1"])
        #expect(try ids(store, "CREME") == ["m3"])
        #expect(try ids(store, "plait") == ["m1"])
    }

    @Test func japaneseWordsAreFoundInsideTextWithoutSpaces() throws {
        let store = try store(["今日は天気がいい", "天国", "明日の天気", "天気", "コーヒーを飲む"])
        #expect(try ids(store, "天気") == ["m4", "m3", "m1"])        // 2 characters: start, end, whole text
        #expect(try ids(store, "天") == ["m4", "m3", "m2", "m1"])    // 1 character
        #expect(try ids(store, "天気がいい") == ["m1"])               // 3 and more: trigrams
        #expect(try ids(store, "コーヒー") == ["m5"])
        #expect(try ids(store, "天気 いい") == ["m1"])                // both, anywhere
        #expect(try ids(store, "雨").isEmpty)
    }

    @Test func chineseAndKoreanWordsAreFoundInsideLongerRuns() throws {
        let store = try store(["我们的开源软件", "데이터베이스가 빠르다", "软"])
        #expect(try ids(store, "开源") == ["m1"])
        #expect(try ids(store, "软件") == ["m1"])
        #expect(try ids(store, "软") == ["m3", "m1"])
        #expect(try ids(store, "데이터") == ["m2"])
    }

    @Test func thaiWordsAreFoundInsideTextWithoutSpaces() throws {
        let store = try store(["วันนี้อากาศดีมาก", "ขอบคุณครับ"])
        #expect(try ids(store, "อากาศ") == ["m1"])
        #expect(try ids(store, "ดี") == ["m1"])       // two code points: the vocabulary path
        #expect(try ids(store, "ขอบคุณ") == ["m2"])
    }

    @Test func hashtagsMatchOnlyTheTagWhileTheWordMatchesBoth() throws {
        let store = try store(["shipping #swift today", "swift is fast", "#swiftlang news", "#Swift!"])
        #expect(try ids(store, "#swift") == ["m4", "m1"])
        #expect(try ids(store, "swift") == ["m4", "m2", "m1"])
        #expect(try ids(store, "#swiftlang") == ["m3"])
        #expect(try ids(store, "swift -#swift") == ["m2"])
    }

    /// Texts without a sign are passed over before they are prepared for the check; the
    /// fullwidth signs (＃, ＠) count as signs.
    @Test func fullwidthSignsMarkTagsAndMentionsAndTextsWithoutASignNeverMatch() throws {
        let store = try store(["morning ＃coffee", "coffee # later", "coffee with ＠ana", "coffee", "Café #CAFÉ"])
        #expect(try ids(store, "#coffee") == ["m1"])
        #expect(try ids(store, "coffee -#coffee") == ["m4", "m3", "m2"])
        #expect(try ids(store, "@ana") == ["m3"])
        #expect(try ids(store, "#cafe") == ["m5"])
        // A combining accent between the sign and a spaceless word folds to nothing.
        let japanese = try self.store(["今日は#\u{301}東京へ", "#京都 と 東京"])
        #expect(try ids(japanese, "#東京") == ["m1"])
    }

    @Test func mentionsMatchTheHandleWithOrWithoutItsServer() throws {
        let store = try store(["thanks @bob!", "bob said hi", "cc @bob@example.social", "@bobby hello"])
        #expect(try ids(store, "@bob") == ["m3", "m1"])
        #expect(try ids(store, "@bob@example.social") == ["m3"])
        #expect(try ids(store, "bob") == ["m3", "m2", "m1"])
    }

    @Test func hashtagsInJapaneseAreChecked() throws {
        let store = try store(["今日は #東京 へ", "東京タワー"])
        #expect(try ids(store, "#東京") == ["m1"])
        #expect(try ids(store, "東京") == ["m2", "m1"])
    }

    // MARK: Query language

    @Test func phrasesKeepTheirWordsTogetherAndInOrder() throws {
        let store = try store(["good morning, world", "morning is good", "good, morning!"])
        #expect(try ids(store, "\"good morning\"") == ["m3", "m1"])
        #expect(try ids(store, "good morning") == ["m3", "m2", "m1"])
    }

    @Test func orExclusionAndPrefixCombine() throws {
        let store = try store(["cats and dogs", "only cats", "only dogs", "performance matters", "perfect"])
        #expect(try ids(store, "cats OR dogs") == ["m3", "m2", "m1"])
        #expect(try ids(store, "cats -dogs") == ["m2"])
        #expect(try ids(store, "only cats OR dogs") == ["m3", "m2"])
        #expect(try ids(store, "perf*") == ["m5", "m4"])
    }

    @Test func textThatLooksLikeFTS5SyntaxIsSearchedAsWords() throws {
        let store = try store(["NEAR the column: text", "a AND b"])
        for query in ["NEAR(", "column:", "text:near", "^the", "\"\"", "(a", "a AND", "*", "NOT", "{text}"] {
            #expect(throws: Never.self, "\(query)") {
                do {
                    _ = try store.search(query)
                } catch TimelineStoreError.invalidSearch {
                    // Clear usage errors are fine; SQLite errors are not.
                }
            }
        }
        #expect(try ids(store, "column:") == ["m1"])
        #expect(try ids(store, "NOT") == [])
    }

    @Test func badQueriesAreRefusedWithWhatToDo() throws {
        let store = try store(["anything"])
        let cases: [(String, SearchQueryError)] = [
            ("\"unclosed phrase", .unbalancedQuote),
            ("", .nothingToSearch),
            ("   !!! ", .nothingToSearch),
            ("-spam", .onlyExclusions),
            ("OR cats", .misplacedOr),
            ("cats OR", .misplacedOr),
            ("cats OR OR dogs", .misplacedOr),
            ("cats OR -dogs", .misplacedOr),
        ]
        for (query, expected) in cases {
            #expect(throws: TimelineStoreError.invalidSearch(expected), "\(query)") { try store.search(query) }
        }
        #expect(SearchQueryError.unbalancedQuote.description.contains("double quotes"))
    }

    /// Issue 33: a query of 999 words met SQLite's limit of 1,000 levels of expression and
    /// printed its message and the whole statement. The terms are bounded, in every form a term
    /// takes, and the bound is said before SQLite is asked.
    @Test func aQueryOfMoreTermsThanTheBoundIsRefusedAndOneOfTheBoundRuns() throws {
        let store = try store(["anything"])
        let limit = SearchQuery.maximumTerms
        let forms: [(Int) -> String] = [{ "w\($0)" }, { "#w\($0)" }, { "w\($0)*" }, { "東京\($0)" }, { "\"a\($0) b\"" }, { "w\($0) OR" }, { "-w\($0)" }]
        for form in forms {
            let terms = (0 ..< limit - 1).map(form).joined(separator: " ") + " last"
            #expect(throws: Never.self, "\(terms.prefix(30))") { _ = try store.search(terms) }
            #expect(throws: TimelineStoreError.invalidSearch(.tooManyTerms(count: limit + 1, limit: limit)), "\(terms.prefix(30))") {
                try store.search(terms + " more")
            }
        }
        #expect(throws: TimelineStoreError.invalidSearch(.tooManyTerms(count: 999, limit: limit))) {
            try store.search((0 ..< 999).map { "w\($0)" }.joined(separator: " "))
        }
    }

    // MARK: Order and filters

    @Test func resultsComeNewestFirstWhateverTheOrderOfWriting() throws {
        let store = try Samples.store(in: directory)
        // Written oldest last, so rowid order is the reverse of time order.
        for n in [5, 1, 3, 2, 4] {
            try store.upsert(messages: [Samples.message(n, text: "coffee number \(n)")])
        }
        #expect(try ids(store, "coffee") == ["m5", "m4", "m3", "m2", "m1"])
        #expect(try ids(store, "coffee", limit: 2) == ["m5", "m4"])
    }

    @Test func hashtagResultsFillTheLimitPastWordsThatAreNotTags() throws {
        let store = try Samples.store(in: directory)
        var messages = (1...120).map { Samples.message($0, text: "swift as a word \($0)") }
        messages += [Samples.message(0, text: "an old #swift tag"), Samples.message(-1, text: "an older #swift tag")]
        try store.upsert(messages: messages)
        #expect(try ids(store, "#swift") == ["m0", "m-1"])
        #expect(try ids(store, "#swift", limit: 1) == ["m0"])
    }

    @Test func manyMatchesComeNewestFirstFromTheTimelineWalkToo() throws {
        let store = try Samples.store(in: directory)
        let count = Self.walkAbove + 200
        // Written in a shuffled order, so that rowids do not follow time.
        var numbers = Array(1...count)
        var generator = SplitMix64(seed: 8)
        numbers.shuffle(using: &generator)
        var messages = numbers.map { Samples.message($0, text: "coffee \($0)", read: $0 % 2 == 0) }
        messages += [Samples.message(-2, text: "an old #coffee"), Samples.message(-1, text: "a newer #coffee")]
        try store.upsert(messages: messages)
        #expect(try walkedIDs(store, "coffee", limit: 3) == ["m\(count)", "m\(count - 1)", "m\(count - 2)"])
        #expect(try walkedIDs(store, "coffee", limit: 2, unreadOnly: true) == ["m\(count - 1)", "m\(count - 3)"])
        #expect(try walkedIDs(store, "#coffee") == ["m-1", "m-2"])
    }

    /// Issue 28: the walk looks among the newest messages first (`TimelineWindow`), and must
    /// still find what lies beyond them: an archive imported after the newer messages (rowids
    /// against time), matches only older than every window, a filter that thins the window out.
    @Test func theWalkFindsTheNewestMatchesWhereverTheirRowidsLie() throws {
        let store = try Samples.store(in: directory)
        let count = Self.walkAbove + 300
        // In time order, as a sync brings them: "tea" only in the oldest 150, "rare" in 3.
        try store.upsert(messages: (1...count).map { n in
            Samples.message(n, text: "coffee \(n)" + (n <= 150 ? " tea" : "") + ([5, 7, 200].contains(n) ? " rare" : ""),
                            read: n % 10 != 0)
        })
        #expect(try walkedIDs(store, "coffee", limit: 3) == ["m\(count)", "m\(count - 1)", "m\(count - 2)"])
        #expect(try walkedIDs(store, "tea", limit: 2) == ["m150", "m149"])
        #expect(try walkedIDs(store, "coffee", limit: 3, unreadOnly: true) == ["m\(count)", "m\(count - 10)", "m\(count - 20)"])
        #expect(try walkedIDs(store, "coffee -tea", limit: 1000).count == count - 150)
        // An old archive arrives last: its rowids are the highest, its times the oldest, and
        // one message of it is newer than everything.
        var archive = (1...150).map { Samples.message(-$0, text: "coffee archived \($0) tea") }
        archive.append(Samples.message(count + 5, text: "coffee from the archive, but new"))
        try store.upsert(messages: archive)
        #expect(try walkedIDs(store, "coffee", limit: 2) == ["m\(count + 5)", "m\(count)"])
        #expect(try walkedIDs(store, "tea", limit: 2) == ["m150", "m149"])
        #expect(try walkedIDs(store, "archived", limit: 2) == ["m-1", "m-2"])
        #expect(try walkedIDs(store, "coffee", limit: 1000).count == count + 151)
        // The windows change no answer: the same searches without them.
        for query in ["coffee", "tea", "archived", "coffee -tea", "rare"] {
            let plain = try store.search(try SearchQuery(query), limit: 30, author: nil, unreadOnly: false, sortingLimit: Self.walkAbove,
                                         windowSizes: []).results.map(\.message.id)
            #expect(try walkedIDs(store, query, limit: 30) == plain, "\(query)")
        }
    }

    @Test func manyShortSpacelessMatchesComeNewestFirstFromTheTimelineWalk() throws {
        let store = try Samples.store(in: directory)
        let count = Self.walkAbove + 100
        var numbers = Array(1...count)
        var generator = SplitMix64(seed: 9)
        numbers.shuffle(using: &generator)
        try store.upsert(messages: numbers.map { Samples.message($0, text: $0 % 3 == 0 ? "雨の天気 \($0)" : "今日は天気 \($0)") })
        #expect(try walkedIDs(store, "天気", limit: 2) == ["m\(count)", "m\(count - 1)"])
        let dry = try walkedIDs(store, "天気 -雨", limit: 3)
        #expect(dry == numbers.filter { $0 % 3 != 0 }.sorted(by: >).prefix(3).map { "m\($0)" })
        #expect(try walkedIDs(store, "天 OR 雪", limit: 1) == ["m\(count)"])
    }

    @Test func authorAndUnreadFiltersNarrowTheResults() throws {
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [
            Samples.message(1, text: "tea time", read: true),
            Samples.message(2, text: "tea again"),
            Samples.message(3, author: Samples.bob, text: "tea for bob"),
        ])
        #expect(try ids(store, "tea", author: "alice") == ["m2", "m1"])
        #expect(try ids(store, "tea", author: "@bob@example.social") == ["m3"])
        #expect(try ids(store, "tea", author: "nobody").isEmpty)
        #expect(try ids(store, "tea", unreadOnly: true) == ["m3", "m2"])
        #expect(try ids(store, "tea", author: "alice", unreadOnly: true) == ["m2"])
    }

    @Test func resultsCarryTheirAuthorAndTheRangesToHighlight() throws {
        let store = try store(["Un Café noir", "今日は天気がいい"])
        let cafe = try store.search("cafe").results
        #expect(cafe.first?.author == Samples.alice)
        let text = cafe[0].message.text
        #expect(cafe[0].matches.map { String(text[$0]) } == ["Café"])
        let weather = try store.search("天気").results[0]
        #expect(weather.matches.map { String(weather.message.text[$0]) } == ["天気"])
    }

    // MARK: Keeping the index right

    @Test func editedTextIsFoundByItsNewWordsOnly() throws {
        let store = try store(["old words here", "今日は天気がいい"])
        try store.upsert(messages: [Samples.message(1, text: "new text"), Samples.message(2, text: "東京は雨")])
        #expect(try ids(store, "old").isEmpty)
        #expect(try ids(store, "new") == ["m1"])
        #expect(try ids(store, "天気").isEmpty)
        #expect(try ids(store, "雨") == ["m2"])
        try expectIndexIntact(store)
    }

    @Test func deletedMessagesLeaveTheIndex() throws {
        let store = try store(["delete me", "今日は天気がいい", "keep me"])
        try store.deleteMessages(ids: ["m1", "m2"])
        #expect(try ids(store, "me") == ["m3"])
        #expect(try ids(store, "天気").isEmpty)
        #expect(try SQLiteShell.run(store.path, "SELECT count(*) FROM messages_search_unspaced_terms").trimmed == "0")
        try expectIndexIntact(store)
    }

    @Test func anUpsertThatLeavesTheTextAloneDoesNotTouchTheIndex() throws {
        let store = try store(["counting likes", "今日は天気がいい"])
        let before = try indexPages(store)
        try store.upsert(messages: [Samples.message(1, text: "counting likes"), Samples.message(2, text: "今日は天気がいい")])
        var liked = Samples.message(1, text: "counting likes")
        liked.likeCount = 42
        try store.upsert(messages: [liked])
        try store.markRead(ids: ["m1", "m2"])
        #expect(try store.message(id: "m1")?.likeCount == 42)
        #expect(try indexPages(store) == before)
    }

    @Test func oneTransactionThatAddsEditsAndDeletesIndexesWhatItLeaves() throws {
        let store = try store(["before 天気", "doomed words"])
        try store.write { transaction in
            try transaction.upsert(messages: [Samples.message(3, text: "fresh 雨")])
            try transaction.upsert(messages: [Samples.message(3, text: "fresher 雪")])     // added, then edited
            try transaction.upsert(messages: [Samples.message(1, text: "after 晴れ")])     // edited
            try transaction.upsert(messages: [Samples.message(1, text: "after all 晴れ")]) // edited twice
            try transaction.deleteMessages(ids: ["m2"])
            try transaction.upsert(messages: [Samples.message(4, text: "gone soon")])
            try transaction.deleteMessages(ids: ["m4"])                                  // added, then deleted
        }
        #expect(try ids(store, "fresher") == ["m3"])
        #expect(try ids(store, "雪") == ["m3"])
        #expect(try ids(store, "fresh").isEmpty)
        #expect(try ids(store, "雨").isEmpty)
        #expect(try ids(store, "after all") == ["m1"])
        #expect(try ids(store, "晴れ") == ["m1"])
        #expect(try ids(store, "before").isEmpty)
        #expect(try ids(store, "天気").isEmpty)
        #expect(try ids(store, "doomed").isEmpty)
        #expect(try ids(store, "gone").isEmpty)
        #expect(try SQLiteShell.run(store.path, "SELECT (SELECT count(*) FROM messages_search_pending) + (SELECT count(*) FROM messages_search_deferred)").trimmed == "0")
        try expectIndexIntact(store)
    }

    @Test func aWriteThatFailsLeavesNothingDeferredForTheNextWriter() throws {
        let store = try store(["kept"])
        #expect(throws: TimelineStoreError.self) {
            try store.write { transaction in
                try transaction.upsert(messages: [Samples.message(2, text: "never committed")])
                throw TimelineStoreError.invalidValue(field: "test", reason: "rolled back")
            }
        }
        try SQLiteShell.run(store.path, "INSERT INTO messages (id, author_id, text, created_at) VALUES ('ext', 'u1', 'typed in the shell', 1795100000000)")
        #expect(try ids(store, "shell") == ["ext"])
        #expect(try ids(store, "committed").isEmpty)
        try expectIndexIntact(store)
    }

    // MARK: The deferred notes live on the writing connection (migration 19)

    @Test func theFileKeepsNoDeferredNotesAndTimelineKitsWritesAreStillIndexedAtTheirEnd() throws {
        let store = try store(["a first 天気 message"])
        #expect(try SQLiteShell.run(store.path, "SELECT count(*) FROM sqlite_master WHERE type = 'trigger' AND sql LIKE '%messages_search_pending%'").trimmed == "0")
        // A second store is a second connection, which declares its own notes at its first write.
        let other = try TimelineStore(path: store.path)
        try other.write { transaction in
            try transaction.upsert(messages: [Samples.message(2, text: "second 雨 words")])
            try transaction.upsert(messages: [Samples.message(1, text: "a first edited 晴れ message")])
        }
        #expect(try ids(store, "second") == ["m2"])
        #expect(try ids(store, "雨") == ["m2"])
        #expect(try ids(store, "edited") == ["m1"])
        #expect(try ids(store, "天気").isEmpty)
        try other.write { transaction in try transaction.deleteMessages(ids: ["m2"]) }
        #expect(try ids(store, "雨").isEmpty)
        #expect(try SQLiteShell.run(store.path, "SELECT count(*) FROM messages_search_pending").trimmed == "0")
        try expectIndexIntact(store)
    }

    @Test func aWriteThatRolledBackItsNotesDeclarationHasThemDeclaredAgainByTheNext() throws {
        let path = try store(["kept"]).path
        // A new connection whose first transaction declares the notes, then rolls back.
        let store = try TimelineStore(path: path)
        #expect(throws: TimelineStoreError.self) {
            try store.write { transaction in
                try transaction.upsert(messages: [Samples.message(2, text: "never committed")])
                throw TimelineStoreError.invalidValue(field: "test", reason: "rolled back")
            }
        }
        try store.upsert(messages: [Samples.message(3, text: "noted after the rollback")])
        #expect(try ids(store, "rollback") == ["m3"])
        #expect(try ids(store, "committed").isEmpty)
        try expectIndexIntact(store)
    }

    @Test func migration19TakesTheNotesOutOfTheFileAndKeepsTheIndexRight() throws {
        let path = try store(["before the migration 天気"]).path
        try Samples.undoMigration19(path)
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_deferred' AND type = 'trigger'").trimmed == "3")
        let store = try TimelineStore(path: path)
        try store.upsert(messages: [Samples.message(1, text: "after the migration 雨")])
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE '%_deferred' AND type = 'trigger'").trimmed == "0")
        #expect(try SQLiteShell.run(path, "PRAGMA user_version").trimmed == "\(Migration.latestVersion)")
        #expect(try ids(store, "after") == ["m1"])
        #expect(try ids(store, "雨") == ["m1"])
        #expect(try ids(store, "天気").isEmpty)
        try expectIndexIntact(store)
    }

    @Test func aMessageInsertedWithTheSQLiteShellIsFound() throws {
        let store = try store(["first"])
        try SQLiteShell.run(store.path, """
            INSERT INTO messages (id, author_id, text, created_at) VALUES ('ext1', 'u1', '外部から天気 and a Café', 1795100000000);
            UPDATE messages SET text = 'edited outside' WHERE id = 'm1';
            """)
        #expect(try ids(store, "天気") == ["ext1"])
        #expect(try ids(store, "cafe") == ["ext1"])
        #expect(try ids(store, "outside") == ["m1"])
        #expect(try ids(store, "first").isEmpty)
        try SQLiteShell.run(store.path, "DELETE FROM messages WHERE id = 'ext1'")
        #expect(try ids(store, "天気").isEmpty)
        try expectIndexIntact(store)
    }

    @Test func aVersion1DatabaseGainsTheIndexWhenOpened() throws {
        let path = directory.file("timeline.sqlite")
        try FileManager.default.copyItem(atPath: Fixtures.path("schema-v1.sqlite"), toPath: path)
        #expect(try SQLiteShell.run(path, "SELECT count(*) FROM sqlite_master WHERE name LIKE 'messages_search%'").trimmed == "0")
        let store = try TimelineStore(path: path)
        #expect(try ids(store, "message") == ["113000000000000001"])
        #expect(try ids(store, "emoji") == ["113000000000000002"])
        #expect(try ids(store, "日本") == ["113000000000000002"])
        #expect(try ids(store, "newest", unreadOnly: true) == ["113000000000000003"])
        try expectIndexIntact(store)
    }

    @Test func theIndexedScriptsAreTheOnesTheQueriesLookUp() throws {
        let store = try store([])
        let view = try SQLiteShell.run(store.path, "SELECT sql FROM sqlite_master WHERE name = 'messages_unspaced'")
        let flat = view.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(flat.contains("FROM (SELECT seq, text, CAST(text AS BLOB) AS b FROM messages) WHERE length(text) <> length(b) AND "
            + SearchScripts.unspacedCondition(on: "b")), "\(flat)")
        // The triggers read the view, not copies of the condition; no column computes it at
        // every insert.
        let triggers = try SQLiteShell.run(store.path, "SELECT sql FROM sqlite_master WHERE name LIKE 'messages_search_%' AND type = 'trigger'")
        #expect(!triggers.contains("instr("))
        #expect(triggers.components(separatedBy: "FROM messages_unspaced").count - 1 == 4)
        let table = try SQLiteShell.run(store.path, "SELECT sql FROM sqlite_master WHERE name = 'messages'")
        #expect(!table.contains("GENERATED"))
    }

    @Test func theSwiftTestOfTheScriptsAgreesWithTheRangesForEveryCharacter() {
        for value in UInt32(0x80)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            // Between ASCII, at the start and at the very end: a prefix cut by the end is no match.
            for text in ["a\(scalar)b", "\(scalar)", "é\(scalar)"] {
                var text = text
                let holds = text.withUTF8 { SearchScripts.holdsUnspaced($0) }
                if holds != SearchScripts.isUnspaced(scalar) {
                    Issue.record("U+\(String(value, radix: 16)) in \(text.debugDescription): Swift says \(holds)")
                    return
                }
            }
        }
        // A lead byte cut off by the end of the text (SQLite may hand over any bytes).
        for cut: [UInt8] in [[0x61, 0xE0], [0xE1], [0xE0, 0xB8], [0xE3]] {
            #expect(cut.withUnsafeBufferPointer(SearchScripts.holdsUnspaced) == (cut.last == 0xE3 || cut.count == 2 && cut[0] == 0xE0 && cut[1] == 0xB8))
        }
    }

    /// The trigram index holds exactly the messages the view names, with the text they hold
    /// (a contentless index cannot check that itself): the same terms at the same places as an
    /// index built afresh from `messages_unspaced`.
    @Test func theTrigramIndexHoldsExactlyTheUnspacedTextsThroughEveryKindOfWrite() throws {
        let store = try store(["今日は天気がいい", "plain text", "ภาษาไทย", "café", "mixed 天気 text", "ពេលព្រឹក"])
        try store.upsert(messages: [Samples.message(2, text: "天気 now"), Samples.message(1, text: "no longer")])
        #expect(try store.deleteMessages(ids: ["m3"]) == 1)
        try expectTrigramIndexMatchesMessages(store, expected: 3)
        try SQLiteShell.run(store.path, """
            INSERT INTO messages (id, author_id, text, created_at) VALUES ('s1', 'u1', 'ကမ္ဘာ', 1795100000000);
            UPDATE messages SET text = 'ឈ្មោះ' WHERE id = 'm4';
            UPDATE messages SET text = 'plain again' WHERE id = 'm5';
            DELETE FROM messages WHERE id = 'm6';
            UPDATE messages SET text = 'ไทย again' WHERE id = 'm2';
            """)
        try expectTrigramIndexMatchesMessages(store, expected: 3)
        #expect(try ids(store, "ไทย") == ["m2"])
        #expect(try ids(store, "天気").isEmpty)
    }

    @Test func theBytePrefixesStartExactlyTheUnspacedCharacters() {
        for value in UInt32(0x80)...0x2FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let bytes = Array(String(scalar).utf8)
            let byPrefix = SearchScripts.unspacedPrefixes.contains { bytes.starts(with: $0) }
            if byPrefix != SearchScripts.isUnspaced(scalar) {
                Issue.record("U+\(String(value, radix: 16)): prefix \(byPrefix), range \(!byPrefix)")
                return
            }
        }
    }

    // MARK: Helpers

    private func expectTrigramIndexMatchesMessages(
        _ store: TimelineStore, expected: Int, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let unspaced = try SQLiteShell.run(store.path, "SELECT count(*) FROM messages_unspaced").trimmed
        #expect(unspaced == String(expected), sourceLocation: sourceLocation)
        let differences = try SQLiteShell.run(store.path, """
            CREATE VIRTUAL TABLE temp.fresh USING fts5 (text, content = '', columnsize = 0, tokenize = 'trigram');
            INSERT INTO temp.fresh (rowid, text) SELECT seq, text || char(10, 10) FROM messages_unspaced;
            CREATE VIRTUAL TABLE temp.fresh_terms USING fts5vocab (temp, fresh, instance);
            SELECT (SELECT count(*) FROM (
                        SELECT term, doc, offset FROM messages_search_unspaced_terms
                        EXCEPT SELECT term, doc, offset FROM temp.fresh_terms))
                + (SELECT count(*) FROM (
                        SELECT term, doc, offset FROM temp.fresh_terms
                        EXCEPT SELECT term, doc, offset FROM messages_search_unspaced_terms));
            """).trimmed
        #expect(differences == "0", sourceLocation: sourceLocation)
    }

    /// FTS5's own check that the word index matches the messages table.
    private func expectIndexIntact(_ store: TimelineStore, sourceLocation: SourceLocation = #_sourceLocation) throws {
        try SQLiteShell.run(store.path, "INSERT INTO messages_search (messages_search, rank) VALUES ('integrity-check', 1)")
        try SQLiteShell.run(store.path, "INSERT INTO messages_search_unspaced (messages_search_unspaced) VALUES ('integrity-check')")
    }

    /// Every page of both indexes, to tell whether a write touched them.
    private func indexPages(_ store: TimelineStore) throws -> String {
        try SQLiteShell.run(store.path, """
            SELECT 'w', id, hex(block) FROM messages_search_data
            UNION ALL SELECT 'u', id, hex(block) FROM messages_search_unspaced_data ORDER BY 1, 2
            """)
    }
}
