import Foundation
import Testing
@testable import TimelineKit

/// A change of the rules re-decides only the stored messages it can concern
/// (`ModerationCandidates`): what it leaves out must be exactly what it could not change. Each
/// test compares a store whose rules changed after its messages were written (the narrowed
/// re-decide) with a store given the same rules before the same messages (each decided as it is
/// written).
@Suite struct ModerationCandidatesTests {
    private static let kelvin = "\u{212A}"

    /// Texts from an alphabet of what the narrowing must not miss: capitals, the Kelvin sign and
    /// `İ` (whose lowercase is ASCII), letters joined over punctuation (`s.h.i.t`), tags, `_`, `%`.
    private static func texts(count: Int, seed: UInt64) -> [String] {
        let pieces = ["shit", "S.H.I.T", "s-h-i-t", "Shi", "t", "\(kelvin)elvin", "kelvin", "KELVIN", "\u{130}stanbul", "istanbul",
                      "#Swift", "swift!", "foo_bar", "FOO_BAR", "fooxbar", "100%", "c++", "C++", "abc++", "café", "CAFÉ", "日本",
                      " ", " ", " ", "\n", ".", ",", "/", "#", "spoiler", "Spoilers", "🙂"]
        var generator = SplitMix64(seed: seed)
        return (0..<count).map { _ in
            (0..<Int(1 + generator.next() % 8)).map { _ in pieces[Int(generator.next() % UInt64(pieces.count))] }.joined()
        }
    }

    private static let words: [MutedWord] = [
        MutedWord(value: "shit"), MutedWord(value: "kelvin"), MutedWord(value: "istanbul"), MutedWord(value: "swift", targetsText: false),
        MutedWord(value: "foo_bar"), MutedWord(value: "100%", wholeWord: false), MutedWord(value: "c++"), MutedWord(value: "café"),
        MutedWord(value: "spoiler", action: .warn, title: "Spoilers"), MutedWord(value: "日本", wholeWord: false), MutedWord(value: "t"),
    ]

    /// Messages with the texts in their text, content warning or alt text, and a boost of each
    /// fifth one.
    private static func messages(_ texts: [String]) -> [Message] {
        var messages: [Message] = []
        for (index, text) in texts.enumerated() {
            var message = Samples.message(index + 1, text: index % 3 == 0 ? text : "plain")
            if index % 3 == 1 { message.contentWarning = text }
            if index % 3 == 2 { message.attachments = [Attachment(kind: "image", url: nil, altText: text)] }
            messages.append(message)
            if index % 5 == 0 {
                messages.append(Message(id: "boost\(index)", authorID: Samples.bob.id, text: "", createdAt: message.createdAt.addingTimeInterval(1),
                                        repostOfID: message.id))
            }
        }
        return messages
    }

    private static func verdicts(_ store: TimelineStore, _ messages: [Message]) throws -> [String: ModerationVerdict] {
        var verdicts: [String: ModerationVerdict] = [:]
        for message in messages { verdicts[message.id] = try store.message(id: message.id)?.storedVerdict }
        return verdicts
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func wordsMutedOneByOneAfterTheMessagesDecideWhatWordsMutedBeforeThemDo(seed: UInt64) throws {
        let messages = Self.messages(["a spoiler"] + Self.texts(count: 120, seed: seed))
        let narrowedDirectory = TemporaryDirectory(), wholeDirectory = TemporaryDirectory()
        let narrowed = try Samples.store(in: narrowedDirectory)
        try narrowed.upsert(users: [Samples.alice, Samples.bob], messages: messages)
        for word in Self.words {
            try narrowed.updateModerationRules(account: "a") { $0.mutedWords.append(word) }
        }
        let whole = try Samples.store(in: wholeDirectory)
        try whole.updateModerationRules(account: "a") { $0.mutedWords = Self.words }
        try whole.upsert(users: [Samples.alice, Samples.bob], messages: messages)
        let decided = try Self.verdicts(whole, messages)
        #expect(try Self.verdicts(narrowed, messages) == decided)
        // The texts hold every word somewhere: the comparison is not between two empty sets.
        #expect(decided.values.contains { if case .hidden = $0 { true } else { false } })
        #expect(decided.values.contains { if case .collapsed = $0 { true } else { false } })

        // Unmuting half of them frees what only they decided.
        let kept = Self.words.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        try narrowed.updateModerationRules(account: "a") { $0.mutedWords = kept }
        let keptDirectory = TemporaryDirectory()
        let wholeKept = try Samples.store(in: keptDirectory)
        try wholeKept.updateModerationRules(account: "a") { $0.mutedWords = kept }
        try wholeKept.upsert(users: [Samples.alice, Samples.bob], messages: messages)
        #expect(try Self.verdicts(narrowed, messages) == Self.verdicts(wholeKept, messages))
    }

    @Test func theNarrowedSearchOfAnASCIIWordMissesNoneOfItsWaysToMatch() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let texts = ["a \(Self.kelvin)ELVIN here", "s.h.i.t happens", "#KELVIN", "no match at all"]
        try store.upsert(messages: texts.enumerated().map { Samples.message($0.offset + 1, text: $0.element) })
        let change = try store.updateModerationRules(account: "a") { $0.mutedWords = [MutedWord(value: "kelvin"), MutedWord(value: "shit")] }
        #expect(change.hidden == 3)
        #expect(try store.timeline(limit: 10).messages.map(\.id) == ["m4"])
    }

    @Test func anASCIIWordIsSearchedForAndAWordBeyondASCIIReadsEverything() {
        let candidates = ModerationCandidates(before: .none, after: ModerationRules(mutedWords: [MutedWord(value: "Foo_Bar")]))
        #expect(!candidates.everything)
        #expect(candidates.clause?.contains(#"m.text LIKE '%f%o%o%\_%b%a%r%' ESCAPE '\'"#) == true)
        #expect(ModerationCandidates(before: .none, after: ModerationRules(mutedWords: [MutedWord(value: "café")])).everything)
        #expect(ModerationCandidates(before: .none, after: ModerationRules(mutedWords: [MutedWord(value: "!!!")])).everything)
        let many = (0...ModerationCandidates.maximumWordConditions).map { MutedWord(value: "w\($0)") }
        #expect(ModerationCandidates(before: .none, after: ModerationRules(mutedWords: many)).everything)
        // Removing a word reads only what some rule decided.
        let removed = ModerationCandidates(before: ModerationRules(mutedWords: [MutedWord(value: "foo")]), after: .none)
        #expect(!removed.everything && removed.decidedOnes && removed.wordConditions.isEmpty)
    }
}
