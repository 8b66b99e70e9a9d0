/// A text prepared for finding search terms in it: its words (as the word index sees them,
/// except that a run of a spaceless script also ends a word) and its scalars, folded, each
/// with where it came from in the text.
struct SearchText {
    /// A word of the text: its folded form and where it is.
    struct Word {
        /// Where its folded form is in `SearchText.folded` (a word's scalars are consecutive).
        var folded: Range<Int>
        var range: Range<String.Index>
        /// The scalar right before the word, if any (a `#` or `@`?).
        var before: Unicode.Scalar?
    }

    let text: String
    private(set) var words: [Word] = []
    /// Every scalar of the text folded; `origins[i]` is the text scalar `folded[i]` came from.
    private(set) var folded: [Unicode.Scalar] = []
    private(set) var origins: [String.Index] = []

    init(_ text: String) {
        self.text = text
        let scalars = text.unicodeScalars
        var current: Word?
        var previous: Unicode.Scalar?
        var index = scalars.startIndex
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            let isWord = Self.isWordScalar(scalar, continuing: current != nil)
            if isWord, current == nil { current = Word(folded: folded.count..<folded.count, range: index..<next, before: previous) }
            if scalar.isASCII {
                // Most text: one scalar folds to one, without making a String for it.
                folded.append(SearchFolding.foldASCII(scalar))
                origins.append(index)
            } else {
                let foldedScalar = SearchFolding.fold(scalar)
                for piece in foldedScalar.unicodeScalars {
                    folded.append(piece)
                    origins.append(index)
                }
            }
            if isWord, let word = current {
                current?.folded = word.folded.lowerBound..<folded.count
                current?.range = word.range.lowerBound..<next
            } else if let word = current {
                words.append(word)
                current = nil
            }
            previous = scalar
            index = next
        }
        if let word = current { words.append(word) }
    }

    /// Letters, digits and private-use characters make words, as in unicode61; a combining
    /// mark continues one. Scripts written without spaces are left to the substring search.
    private static func isWordScalar(_ scalar: Unicode.Scalar, continuing: Bool) -> Bool {
        if scalar.isASCII {
            let value = scalar.value
            return (0x30...0x39).contains(value) || (0x41...0x5A).contains(value) || (0x61...0x7A).contains(value)
        }
        if SearchScripts.isUnspaced(scalar) { return false }
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
             .decimalNumber, .letterNumber, .otherNumber, .privateUse:
            return true
        case .nonspacingMark, .spacingMark, .enclosingMark:
            return continuing
        default:
            return false
        }
    }

    /// Where the run of `words` occurs (the last one as a prefix when `prefix`), from the marker
    /// before the first word when there must be one.
    func wordRanges(of query: [[Unicode.Scalar]], prefix: Bool, after marker: SearchTerm.Marker?) -> [Range<String.Index>] {
        guard !query.isEmpty, words.count >= query.count else { return [] }
        var ranges: [Range<String.Index>] = []
        for start in 0...(words.count - query.count) {
            var matches = true
            for (offset, word) in query.enumerated() {
                let candidate = folded[words[start + offset].folded]
                let isLast = offset == query.count - 1
                if !(candidate.elementsEqual(word) || (isLast && prefix && candidate.starts(with: word))) {
                    matches = false
                    break
                }
            }
            guard matches else { continue }
            var lower = words[start].range.lowerBound
            if let marker {
                guard let before = words[start].before, marker.scalars.contains(before) else { continue }
                lower = text.unicodeScalars.index(before: lower)
            }
            ranges.append(lower..<words[start + query.count - 1].range.upperBound)
        }
        return ranges
    }

    /// Where the folded scalars `query` occur, anywhere (they need no word boundary), preceded
    /// by the marker when there must be one.
    func substringRanges(of query: [Unicode.Scalar], after marker: SearchTerm.Marker?) -> [Range<String.Index>] {
        guard !query.isEmpty, folded.count >= query.count else { return [] }
        var ranges: [Range<String.Index>] = []
        var start = 0
        while start + query.count <= folded.count {
            if folded[start] == query[0], Array(folded[start..<(start + query.count)]) == query {
                var lower = origins[start]
                var accepted = true
                if let marker {
                    if start > 0, marker.scalars.contains(folded[start - 1]) {
                        lower = origins[start - 1]
                    } else {
                        accepted = false
                    }
                }
                if accepted {
                    let last = origins[start + query.count - 1]
                    ranges.append(lower..<text.unicodeScalars.index(after: last))
                }
            }
            start += 1
        }
        return ranges
    }

    /// `ranges` widened to whole characters (a match may start inside a cluster, `ก` of `กิ`),
    /// sorted, with overlapping ones merged.
    func normalized(_ ranges: [Range<String.Index>]) -> [Range<String.Index>] {
        guard !ranges.isEmpty else { return [] }
        let starts = Array(text.indices)
        func roundDown(_ index: String.Index) -> String.Index {
            var low = 0, high = starts.count
            while low < high {
                let mid = (low + high) / 2
                if starts[mid] <= index { low = mid + 1 } else { high = mid }
            }
            return low == 0 ? text.startIndex : starts[low - 1]
        }
        func roundUp(_ index: String.Index) -> String.Index {
            let down = roundDown(index)
            guard down < index else { return down }
            return text.index(after: down)
        }
        let widened = ranges.map { roundDown($0.lowerBound)..<roundUp($0.upperBound) }.sorted { $0.lowerBound < $1.lowerBound }
        var merged: [Range<String.Index>] = []
        for range in widened {
            if let last = merged.last, range.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        return merged
    }
}
