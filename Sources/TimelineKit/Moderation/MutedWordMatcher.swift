#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A list of ``MutedWord``s compiled once, so that the words a message holds are found in one
/// pass over it, whatever the number of words (issue 34: 10,000 muted words cost a message the
/// same hash lookups as ten).
///
/// ```swift
/// let matcher = MutedWordMatcher([MutedWord(value: "spoiler"), MutedWord(value: "c++")])
/// matcher.matches(in: message)   // the words `message` holds
/// ```
///
/// What a message holds is read in its text, its content warning (Mastodon matches
/// `spoiler_text` too) and its attachments' descriptions (Mastodon and Bluesky match media
/// descriptions and alt text), all lowercased with `String.lowercased()`, as the words are:
/// - A word with ``MutedWord/wholeWord`` matches the same tokens in a row (`WordTokens`): whole
///   words and phrases, as Mastodon's `whole_word` (`\bword\b`) and Bluesky's `hasMutedWord`
///   (a word between punctuation, a phrase's words in a row) do; a word is also matched against
///   each space-separated chunk with its punctuation taken out (`s.h.i.t`, Bluesky's rule).
/// - A word without it matches anywhere, as a literal (Mastodon's `whole_word: false`; Bluesky's
///   one-character words and words of scripts written without spaces, which
///   ``BlueskyPreferences`` reads with `wholeWord` off). A word with no word character at all
///   (`🙄`, `!!!`) matches anywhere too.
/// - Every word is matched against the text's tags (`#word`, ``MutedWord/targetsTags``), as
///   Bluesky matches a muted word against a post's tags whatever its targets.
public struct MutedWordMatcher: Sendable {
    /// The words, in the order given: what ``matches(in:)`` returns from.
    public let words: [MutedWord]
    /// The tokens of the words matched whole, numbered.
    private let vocabulary: [Substring: UInt32]
    /// Words matched whole, as sequences of token numbers; the pattern index is an index in `wholeWords`.
    private let tokenPatterns: PatternAutomaton
    private let wholeWords: [Int32]
    /// Words matched anywhere, as sequences of Unicode scalars.
    private let scalarPatterns: PatternAutomaton
    private let anywhereWords: [Int32]
    /// Every word, by its value as a tag (lowercased, without a leading `#`).
    private let tags: [Substring: [Int32]]

    /// Compiles `words`: time and memory in proportion to their total length.
    public init(_ words: [MutedWord]) {
        self.words = words
        var vocabulary: [Substring: UInt32] = [:]
        var tokenPatterns: [[UInt32]] = [], wholeWords: [Int32] = []
        var scalarPatterns: [[UInt32]] = [], anywhereWords: [Int32] = []
        var tags: [Substring: [Int32]] = [:]
        for (index, word) in words.enumerated() {
            let value = word.value.lowercased()
            let tag = Substring(value).drop { $0 == "#" || $0 == "＃" }
            if word.targetsTags, !tag.isEmpty { tags[tag, default: []].append(Int32(index)) }
            guard word.targetsText else { continue }
            let tokens = WordTokens(lowercased: value).tokens
            if word.wholeWord, tokens.contains(where: { $0.first.map(WordTokens.isWordCharacter) == true }) {
                tokenPatterns.append(tokens.map { token in
                    if let number = vocabulary[token] { return number }
                    let number = UInt32(vocabulary.count)
                    vocabulary[token] = number
                    return number
                })
                wholeWords.append(Int32(index))
            } else if !tokens.isEmpty {
                scalarPatterns.append(value.unicodeScalars.map(\.value))
                anywhereWords.append(Int32(index))
            }
        }
        self.vocabulary = vocabulary
        self.tokenPatterns = PatternAutomaton(tokenPatterns)
        self.wholeWords = wholeWords
        self.scalarPatterns = PatternAutomaton(scalarPatterns)
        self.anywhereWords = anywhereWords
        self.tags = tags
    }

    /// Whether no word is compiled.
    public var isEmpty: Bool { words.isEmpty }

    /// The words `message` holds, each once, in the order found (whether they are active, and
    /// whom they apply to, is not asked: see ``ModerationRules/verdict(for:facts:repostedAuthorID:now:)``).
    public func matches(in message: Message) -> [MutedWord] {
        var found: [MutedWord] = []
        var reported = Set<Int32>()
        visit(message) { index in
            if reported.insert(index).inserted { found.append(words[Int(index)]) }
            return true
        }
        return found
    }

    /// Calls `found` with the index of each word `message` holds (a word may come more than once:
    /// in its text and in a tag), until it answers `false`.
    func visit(_ message: Message, _ found: (Int32) -> Bool) {
        guard !words.isEmpty else { return }
        var seenTokens = Set<Int32>(), seenScalars = Set<Int32>()
        for text in message.matchableTexts {
            let lowercased = text.lowercased()
            if !scalarPatterns.isEmpty {
                let going = scalarPatterns.search(lowercased.unicodeScalars.lazy.map(\.value), seen: &seenScalars) { pattern in
                    found(anywhereWords[Int(pattern)])
                }
                guard going else { return }
            }
            guard !tokenPatterns.isEmpty || !tags.isEmpty else { continue }
            let words = WordTokens(lowercased: lowercased)
            if !tokenPatterns.isEmpty {
                let symbols = words.tokens.lazy.map { vocabulary[$0] ?? UInt32.max }
                let going = tokenPatterns.search(symbols, seen: &seenTokens) { pattern in found(wholeWords[Int(pattern)]) }
                guard going else { return }
                for joined in words.joined {
                    guard let number = vocabulary[Substring(joined)] else { continue }
                    for pattern in tokenPatterns.patterns(exactly: number) where !found(wholeWords[Int(pattern)]) { return }
                }
            }
            for tag in words.tags {
                for index in tags[tag] ?? [] where !found(index) { return }
            }
        }
    }

    /// The strictest verdict the words `message` holds make at `now`: a word that hides ends the
    /// search; of words that collapse, the first found gives the reason. Words that exclude
    /// followed accounts are passed over when `authorFollowed`.
    func verdict(for message: Message, authorFollowed: Bool, now: Date) -> ModerationVerdict {
        var verdict = ModerationVerdict.shown
        visit(message) { index in
            let word = words[Int(index)]
            guard word.isActive(at: now), !(word.excludesFollowing && authorFollowed) else { return true }
            switch word.action {
            case .hide:
                verdict = .hidden(reason: word.reason)
                return false
            case .warn:
                verdict = verdict.combined(with: .collapsed(reason: word.reason))
            case .blur:
                break
            }
            return true
        }
        return verdict
    }
}
