import Testing
@testable import TimelineKit

@Suite struct SearchFoldingTests {
    /// The base-letter rows, derived the slow way: a precomposed letter is the base letter with
    /// one combining accent, or two of the stacking ones, when Swift's `Character` (canonical
    /// equivalence) says so.
    private static func derivedRow(_ range: ClosedRange<UInt32>) -> String {
        let marks = (0x300...0x36F).compactMap(Unicode.Scalar.init)
        let stacking = [0x300, 0x301, 0x302, 0x303, 0x306, 0x309, 0x31B, 0x323].compactMap(Unicode.Scalar.init)
        var bases: [Character: Character] = [:]
        for base in "abcdefghijklmnopqrstuvwxyz" {
            var accented = marks.map { [$0] }
            for first in stacking { for second in stacking where second != first { accented.append([first, second]) } }
            for accents in accented {
                var key = String(base)
                key.unicodeScalars.append(contentsOf: accents)
                bases[Character(key)] = base
            }
        }
        return String(range.map { value in
            Unicode.Scalar(value).flatMap { bases[Character($0.properties.lowercaseMapping)] } ?? "-"
        })
    }

    @Test func theBaseLetterRowsAreWhatCanonicalEquivalenceSays() {
        #expect(SearchFolding.latinBasesFrom00C0.description == Self.derivedRow(0xC0...0x24F))
        #expect(SearchFolding.latinBasesFrom1E00.description == Self.derivedRow(0x1E00...0x1EFF))
    }

    @Test func accentedLatinLettersFoldToTheirBaseInLowerCase() {
        #expect(SearchFolding.fold("Café CAFÉ Ệ ǅ ñ Ø ß æ") == "cafe cafe e ǆ n ø ß æ")
        #expect(SearchFolding.fold("e\u{301}") == "e")  // a combining accent folds to nothing
        #expect(SearchFolding.latinBase(of: 0xE9) == "e")
        #expect(SearchFolding.latinBase(of: 0x1EC6) == "e")  // Ệ
        #expect(SearchFolding.latinBase(of: 0xBF) == nil)
        #expect(SearchFolding.latinBase(of: 0x250) == nil)
        #expect(SearchFolding.latinBase(of: 0x1F00) == nil)
    }
}
