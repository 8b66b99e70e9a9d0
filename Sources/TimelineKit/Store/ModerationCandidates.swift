/// Which stored messages a change of the rules can concern: only those are read again and
/// decided anew (`TimelineTransaction.redecide`), so that muting one account, post or word does
/// not cost a verdict for every stored message. Each part of a change names a superset of the
/// messages whose verdict it can change; a part that cannot be narrowed reads everything.
struct ModerationCandidates {
    /// Authors muted, blocked or freed (or followed or no longer, where a word spares the people
    /// followed): their posts and the reposts of them.
    var accounts: Set<String> = []
    /// Posts hidden or shown again: themselves and their reposts.
    var posts: Set<String> = []
    /// Conditions on a message's columns that every message a newly muted word can concern meets
    /// (`wordConditions(for:)`).
    var wordConditions: [String] = []
    /// Whether the messages hidden or collapsed now must be read again: a rule was removed or
    /// eased, and only what some rule decided can be freed by it.
    var decidedOnes = false
    /// Whether the messages with facts of their server (labels, filters matched) must be read
    /// again: a label choice or the list of the server's filters changed.
    var withFacts = false
    /// Whether every message must be read again.
    var everything = false
    /// The words added, where they are all that changed and each is ASCII: SQLite's `LIKE`
    /// narrows by their letters in order, which most texts of common letters pass; this tells
    /// in Swift, from the bytes and far cheaper than the matcher, which of those can hold one
    /// (`mayHoldAnAddedWord`).
    private(set) var addedWordsOnly: [AddedWord]?

    /// A word muted since, as its bytes: what `mayHoldAnAddedWord` looks for.
    struct AddedWord {
        /// The word's first token, lowercased: in the lowercased text wherever the word is
        /// matched whole, anywhere or as a tag.
        var firstToken: [UInt8]
        /// Its word characters (ASCII letters, digits, `_`), lowercased: what a chunk joined over
        /// its punctuation must spell (`s.h.i.t`).
        var letters: [UInt8]
    }

    /// The most words added at once that are searched for one by one; more (a first sync of a
    /// long filter list) read everything, which costs the same for any number of words.
    static let maximumWordConditions = 64

    init(before: ModerationRules, after: ModerationRules) {
        for key in Set(before.mutedAccounts.keys).union(after.mutedAccounts.keys)
        where before.mutedAccounts[key] != after.mutedAccounts[key] {
            accounts.insert(key)
        }
        accounts.formUnion(before.blockedAccounts.symmetricDifference(after.blockedAccounts))
        posts = before.hiddenPosts.symmetricDifference(after.hiddenPosts)

        let wordsBefore = Set(before.mutedWords), wordsAfter = Set(after.mutedWords)
        if !wordsBefore.subtracting(wordsAfter).isEmpty { decidedOnes = true }
        let added = wordsAfter.subtracting(wordsBefore)
        if added.count > Self.maximumWordConditions {
            everything = true
        } else {
            for word in added.sorted(by: { $0.value < $1.value }) {
                guard let condition = Self.wordCondition(for: word) else {
                    everything = true
                    break
                }
                wordConditions.append(condition)
            }
        }
        if before.following != after.following, after.mutedWords.contains(where: \.excludesFollowing) || before.mutedWords.contains(where: \.excludesFollowing) {
            accounts.formUnion(before.following.symmetricDifference(after.following))
        }
        if before.labels != after.labels || before.serverFilters != after.serverFilters || before.serverFiltersRead != after.serverFiltersRead {
            withFacts = true
        }
        if !everything, !wordConditions.isEmpty, accounts.isEmpty, posts.isEmpty, !decidedOnes, !withFacts {
            addedWordsOnly = added.map { word in
                let value = word.value.lowercased()
                let firstToken = WordTokens(lowercased: value).tokens.first.map(String.init) ?? value
                return AddedWord(firstToken: Array(firstToken.utf8), letters: value.utf8.filter(Self.isWordByte))
            }
        }
    }

    private static func isWordByte(_ byte: UInt8) -> Bool {
        (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
    }

    /// Whether `message` (with what it reposts) may hold a word muted since, when the words added
    /// are all that changed (`true` otherwise): a text holds the word's first token (ASCII
    /// letters compared without case), or a chunk between ASCII white space holds the word's
    /// letters in a row once everything but ASCII letters, digits and `_` is taken out, or the
    /// text has `İ` or the Kelvin sign (whose lowercase is ASCII). A text that passes none of
    /// these cannot be matched by the word (see `wordCondition(for:)`), so its verdict stays.
    func mayHoldAnAddedWord(_ message: Message, reposting reposted: Message?) -> Bool {
        guard let words = addedWordsOnly else { return true }
        for candidate in [message, reposted] {
            guard let candidate else { continue }
            for text in candidate.matchableTexts where mayHold(words, in: text) { return true }
        }
        return false
    }

    /// The buffers `mayHold` folds a text into, kept from one text to the next.
    private final class Scratch {
        var folded: [UInt8] = []
        var joined: [UInt8] = []
    }

    private let scratch = Scratch()

    private func mayHold(_ words: [AddedWord], in text: String) -> Bool {
        var text = text
        let scratch = self.scratch
        return text.withUTF8 { bytes -> Bool in
            // U+0130 is C4 B0, U+212A is E2 84 AA.
            for index in bytes.indices where bytes[index] == 0xC4 || bytes[index] == 0xE2 {
                if bytes[index] == 0xC4, index + 1 < bytes.count, bytes[index + 1] == 0xB0 { return true }
                if bytes[index] == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x84, bytes[index + 2] == 0xAA { return true }
            }
            scratch.folded.removeAll(keepingCapacity: true)
            scratch.joined.removeAll(keepingCapacity: true)
            for byte in bytes {
                let lower = byte >= 0x41 && byte <= 0x5A ? byte + 0x20 : byte
                scratch.folded.append(lower)
                // Chunks are kept apart by a space in `joined`, their other non-word bytes dropped.
                if lower == 0x20 || (lower >= 0x09 && lower <= 0x0D) {
                    scratch.joined.append(0x20)
                } else if Self.isWordByte(lower) {
                    scratch.joined.append(lower)
                }
            }
            for word in words {
                if !word.firstToken.isEmpty, Self.contains(scratch.folded, word.firstToken) { return true }
                if !word.letters.isEmpty, Self.contains(scratch.joined, word.letters) { return true }
            }
            return false
        }
    }

    private static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard needle.count <= haystack.count else { return false }
        let first = needle[0]
        var start = 0
        while start <= haystack.count - needle.count {
            if haystack[start] == first, haystack[start ..< start + needle.count].elementsEqual(needle) { return true }
            start += 1
        }
        return false
    }

    /// A condition on `m` (a message) and `r` (what it reposts) that every message `word` can
    /// concern meets, or `nil` when none is known (a word with a character outside ASCII: its
    /// matches are not told by SQLite's ASCII-only case folding).
    ///
    /// ``MutedWordMatcher`` finds a word in the lowercased text, content warning and alt texts,
    /// whole (its first token in them), anywhere (as a substring), as a tag (`#word`, a
    /// substring), or as a chunk's letters joined over punctuation (`s.h.i.t`): in every case
    /// the word's word characters come in the lowercased field in their order. So the field is
    /// `LIKE '%w%o%r%d%'` (ASCII letters compared without case), or holds one of the two
    /// characters whose lowercase holds an ASCII letter (U+0130 `İ` and U+212A, the Kelvin sign).
    /// The attachments column is JSON with its alt texts in it: its keys and addresses only make
    /// the condition looser, never miss one.
    static func wordCondition(for word: MutedWord) -> String? {
        let value = word.value.lowercased()
        guard value.utf8.allSatisfy({ $0 < 0x80 }) else { return nil }
        let letters = value.utf8.filter { byte in
            (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F
        }
        // Words without a word character (`!!!`) are rare: they read everything.
        guard !letters.isEmpty else { return nil }
        var pattern = "%"
        for letter in letters {
            if letter == 0x5F { pattern += "\\" }
            pattern += String(UnicodeScalar(letter)) + "%"
        }
        let fields = ["m.text", "m.content_warning", "m.attachments", "r.text", "r.content_warning", "r.attachments"]
        return "(" + fields.map { field in
            "\(field) LIKE '\(pattern)' ESCAPE '\\' OR instr(\(field), '\u{130}') OR instr(\(field), '\u{212A}')"
        }.joined(separator: " OR ") + ")"
    }

    /// The WHERE clause over `m` (a message) and `r` (what it reposts), with `?1` the accounts and
    /// `?2` the posts as JSON arrays; `""` for every message, `nil` for none.
    var clause: String? {
        if everything { return "" }
        var parts: [String] = []
        if !accounts.isEmpty {
            parts.append("m.author_id IN (SELECT value FROM json_each(?1)) OR r.author_id IN (SELECT value FROM json_each(?1))")
        }
        if !posts.isEmpty {
            // `?2` even without `?1`: SQLite numbers the parameters by the highest one named.
            parts.append("m.id IN (SELECT value FROM json_each(?2)) OR m.repost_of_id IN (SELECT value FROM json_each(?2))")
        }
        parts += wordConditions
        if decidedOnes { parts.append("m.hidden IS NOT NULL OR m.warning IS NOT NULL") }
        if withFacts { parts.append("m.moderation IS NOT NULL OR r.moderation IS NOT NULL") }
        return parts.isEmpty ? nil : parts.joined(separator: " OR ")
    }
}
