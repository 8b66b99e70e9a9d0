/// One thing a search looks for: a word, a phrase or a prefix, a hashtag or a mention, in the
/// word index or, for scripts written without spaces, in the trigram index.
struct SearchTerm: Sendable, Hashable {
    /// What must come right before the term for a hashtag or a mention.
    enum Marker: Sendable, Hashable {
        case hashtag
        case mention

        /// The ASCII and fullwidth signs that mark it.
        var scalars: [Unicode.Scalar] {
            switch self {
            case .hashtag: ["#", "\u{FF03}"]
            case .mention: ["@", "\u{FF20}"]
            }
        }
    }

    /// What the person typed, without `-`, `#`/`@`, quotes and `*`.
    let body: String
    let marker: Marker?
    /// `word*`: the last word may continue.
    let isPrefix: Bool
    /// The body holds a character of a script written without spaces: it is a substring
    /// looked up in the trigram index.
    let isUnspaced: Bool
    /// The body's words, folded (word terms only).
    let words: [[Unicode.Scalar]]
    /// The body folded, scalar by scalar (unspaced terms only).
    let foldedScalars: [Unicode.Scalar]

    /// A term for `body`, or `nil` when it holds nothing searchable (only punctuation).
    init?(body: String, marker: Marker?, isPrefix: Bool) {
        self.body = body
        self.marker = marker
        isUnspaced = body.unicodeScalars.contains(where: SearchScripts.isUnspaced)
        if isUnspaced {
            self.isPrefix = false
            words = []
            let folded = Array(SearchFolding.fold(body).unicodeScalars)
            guard !folded.isEmpty else { return nil }
            foldedScalars = folded
        } else {
            self.isPrefix = isPrefix
            let prepared = SearchText(body)
            words = prepared.words.map { Array(prepared.folded[$0.folded]) }
            foldedScalars = []
            guard !words.isEmpty else { return nil }
        }
    }

    /// Whether the index alone cannot decide it: the index holds words, not the `#` or `@`
    /// before them, so those results are checked in Swift.
    var needsCheck: Bool { marker != nil }

    /// The FTS5 query for this term: the body as one quoted string (quotes doubled), so nothing
    /// the person typed is ever read as FTS5 syntax; FTS5 tokenizes it as it tokenized the text.
    var matchExpression: String {
        "\"" + body.replacing("\"", with: "\"\"") + "\"" + (isPrefix ? " *" : "")
    }

    /// Whether the body is too short for a trigram query (fewer than 3 code points): it is then
    /// looked up as the start of the trigrams in the vocabulary.
    var isShortUnspaced: Bool { isUnspaced && body.unicodeScalars.count < 3 }

    /// The body as the trigram tokenizer folds it (case only): the vocabulary's terms start with it.
    var trigramPrefix: String { body.lowercased() }

    /// Where the term occurs in `text`.
    /// Whether the term could be in `text`, by a quick look when it has a marker: somewhere a
    /// sign must be followed by the term's first word, folded (scalars that fold to nothing,
    /// combining accents, are stepped over). When not, the text need not be prepared for the
    /// full check: most tags in texts that hold the word are other tags.
    func mayOccur(in text: String) -> Bool {
        guard let marker else { return true }
        let wanted = words.first ?? foldedScalars
        guard !wanted.isEmpty else { return false }
        let signs = marker.scalars
        let scalars = text.unicodeScalars
        let utf8 = text.utf8
        // Signs are found by their first byte (`#`, `@`, or 0xEF of the fullwidth ones), which
        // always starts a scalar; only the scalars after one are decoded.
        var from = utf8.startIndex
        while let found = utf8[from...].firstIndex(where: { $0 == 0x23 || $0 == 0x40 || $0 == 0xEF }) {
            from = utf8.index(after: found)
            guard signs.contains(scalars[found]) else { continue }
            var matched = 0
            var next = scalars.index(after: found)
            following: while next < scalars.endIndex {
                let scalar = scalars[next]
                if scalar.isASCII {
                    guard SearchFolding.foldASCII(scalar) == wanted[matched] else { break following }
                    matched += 1
                } else {
                    for piece in SearchFolding.fold(scalar).unicodeScalars {
                        guard piece == wanted[matched] else { break following }
                        matched += 1
                        if matched == wanted.count { return true }
                    }
                }
                if matched == wanted.count { return true }
                next = scalars.index(after: next)
            }
        }
        return false
    }

    func ranges(in text: SearchText) -> [Range<String.Index>] {
        isUnspaced ? text.substringRanges(of: foldedScalars, after: marker) : text.wordRanges(of: words, prefix: isPrefix, after: marker)
    }
}
