#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TimelineKit

@Suite struct MutedWordMatcherTests {
    private let now = Date(timeIntervalSince1970: 1_800_000_000)

    private func message(_ text: String, warning: String? = nil, alt: String? = nil, author: String = "did:plc:author") -> Message {
        Message(id: "m", authorID: author, text: text, createdAt: now, contentWarning: warning,
                attachments: alt.map { [Attachment(kind: "image", url: nil, altText: $0)] } ?? [])
    }

    private func holds(_ text: String, _ word: MutedWord) -> Bool {
        !MutedWordMatcher([word]).matches(in: message(text)).isEmpty
    }

    @Test(arguments: [
        ("Spoilers for the FINALE tonight", "finale", true),
        ("the finale's end", "finale", true),            // a word before punctuation
        ("semifinale", "finale", false),                // not inside another word
        ("finales", "finale", false),
        ("don't", "don", true),                          // Mastodon's \bdon\b
        ("s.h.i.t happens", "shit", true),               // Bluesky: a chunk without its punctuation
        ("and-or", "andor", true),
        ("and/or", "andor", false),                      // a slash joins nothing (Bluesky's and/or vs Andor)
        ("I love C++ a lot", "c++", true),               // a phrase of a word and symbols
        ("abc++", "c++", false),
        ("Hello   World", "hello world", true),          // a phrase: the same words in a row
        ("hello, world", "hello world", false),
        ("say hello world!", "hello world", true),
        ("s@ssy remark", "s@ssy", true),
        ("Größe", "GRÖSSE", false),                      // lowercased, not case-folded: as both networks
        ("ÉLECTION", "élection", true),
    ])
    func aWholeWordMatchesWholeWordsAndPhrasesWhateverTheirCase(text: String, value: String, expected: Bool) {
        #expect(holds(text, MutedWord(value: value)) == expected)
    }

    @Test func aWordThatIsNotWholeMatchesAnywhereAsALiteral() {
        #expect(holds("concatenate", MutedWord(value: "cat", wholeWord: false)))
        #expect(!holds("concatenate", MutedWord(value: "cat")))
        #expect(holds("今天天气很好", MutedWord(value: "天气", wholeWord: false)))
        #expect(holds("a 🙄 face", MutedWord(value: "🙄")))  // no word character: anywhere
    }

    @Test func aRegularExpressionBombIsALiteral() {
        let bomb = "(a+)+$"
        let hostile = String(repeating: "a", count: 50_000) + "!"
        for whole in [true, false] {
            let matcher = MutedWordMatcher([MutedWord(value: bomb, wholeWord: whole)])
            #expect(matcher.matches(in: message(hostile)).isEmpty)
            #expect(matcher.matches(in: message("the pattern (a+)+$ is slow")).count == 1)
        }
    }

    @Test func tagsMatchTheTextsHashtagsAndTagOnlyWordsOnlyThem() {
        let tagOnly = MutedWord(value: "swift", targetsText: false, targetsTags: true)
        #expect(holds("Learning #Swift today.", tagOnly))
        #expect(holds("＃swift, again", tagOnly))
        #expect(!holds("Learning Swift today", tagOnly))
        #expect(holds("news #politics", MutedWord(value: "#politics")))
        #expect(!holds("a #swiftlang post", tagOnly))
    }

    @Test func theContentWarningAndTheAltTextAreMatchedToo() {
        let matcher = MutedWordMatcher([MutedWord(value: "spider")])
        #expect(matcher.matches(in: message("look", warning: "Spider photo")).count == 1)
        #expect(matcher.matches(in: message("look", alt: "a big spider")).count == 1)
        #expect(matcher.matches(in: message("look")).isEmpty)
    }

    @Test func manyPatternsThatAreSuffixesOfEachOtherAreEachFoundOnce() {
        let words = (1...300).map { MutedWord(value: String(repeating: "a", count: $0), wholeWord: false) }
        let found = MutedWordMatcher(words).matches(in: message(String(repeating: "a", count: 20_000)))
        #expect(found.count == 300)
        #expect(Set(found.map(\.value)).count == 300)
    }

    @Test func tenThousandWordsFindTheOnesAMessageHolds() {
        var words = (0..<10_000).map { MutedWord(value: "word\($0)") }
        words += (0..<100).map { MutedWord(value: "phrase \($0) here") }
        let matcher = MutedWordMatcher(words)
        let found = matcher.matches(in: message("about word42 and word9999, then phrase 7 here but not phrase 8"))
        #expect(Set(found.map(\.value)) == ["word42", "word9999", "phrase 7 here"])
    }

    @Test func theRulesHideCollapseAndPassOverExpiredAndFollowedWords() {
        let expired = MutedWord(value: "old", expiresAt: now.addingTimeInterval(-1))
        let following = MutedWord(value: "friendly", excludesFollowing: true)
        let warn = MutedWord(value: "spoiler", action: .warn, title: "Spoilers")
        let rules = ModerationRules(mutedWords: [expired, following, warn], following: ["did:plc:friend"])
        func verdict(_ text: String, author: String = "did:plc:author") -> ModerationVerdict {
            rules.verdict(for: message(text, author: author), facts: .none, now: now)
        }
        #expect(verdict("an old post") == .shown)
        #expect(verdict("friendly words") == .hidden(reason: "muted word"))
        #expect(verdict("friendly words", author: "did:plc:friend") == .shown)
        #expect(verdict("a spoiler!") == .collapsed(reason: "Filtered: Spoilers"))
        #expect(verdict("a spoiler and friendly") == .hidden(reason: "muted word"))
    }

    @Test func changedWordsAreCompiledAgain() {
        var rules = ModerationRules(mutedWords: [MutedWord(value: "first")])
        #expect(rules.verdict(for: message("the first"), facts: .none, now: now) != .shown)
        let before = rules
        rules.mutedWords = [MutedWord(value: "second")]
        #expect(rules.verdict(for: message("the first"), facts: .none, now: now) == .shown)
        #expect(rules.verdict(for: message("the second"), facts: .none, now: now) != .shown)
        #expect(before.verdict(for: message("the first"), facts: .none, now: now) != .shown)
        #expect(before != rules)
    }

    @Test func rulesRoundTripThroughJSONAndReadOlderOnes() throws {
        let rules = ModerationRules(mutedWords: [MutedWord(value: "x", filterID: "7")], hiddenPosts: ["p"],
                                    labels: LabelPreferences(adultContentEnabled: true, labelers: ["did:plc:l"], isRead: true),
                                    following: ["a"])
        let data = try JSONEncoder().encode(rules)
        #expect(try JSONDecoder().decode(ModerationRules.self, from: data) == rules)
        let older = try JSONDecoder().decode(ModerationRules.self, from: Data(#"{"mutedWords":[],"labels":{"adultContentEnabled":true,"choices":[]}}"#.utf8))
        #expect(older.labels.adultContentEnabled && older.following.isEmpty)
    }
}
