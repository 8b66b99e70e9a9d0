import Testing
@testable import TimelineKit

@Suite struct DisplayWidthTests {
    @Test func asciiIsOneColumnPerCharacter() {
        #expect(DisplayWidth.of("") == 0)
        #expect(DisplayWidth.of("Hello, timeline!") == 16)
        #expect(DisplayWidth.of(character: "a") == 1)
    }

    @Test func eastAsianWideAndFullwidthAreTwoColumns() {
        #expect(DisplayWidth.of("日本語") == 6)
        #expect(DisplayWidth.of("ひらがな") == 8)
        #expect(DisplayWidth.of("カタカナ") == 8)
        #expect(DisplayWidth.of("한국어") == 6)
        #expect(DisplayWidth.of("ＡＢ") == 4)
        #expect(DisplayWidth.of("、。「」") == 8)
        #expect(DisplayWidth.of("𠀋") == 2) // CJK Extension B
        #expect(DisplayWidth.of("\u{31350}") == 2) // CJK Extension H, new in Unicode 15
        #expect(DisplayWidth.of("田中 健二") == 9)
    }

    @Test func halfwidthKatakanaIsOneColumn() {
        #expect(DisplayWidth.of("ｶﾀｶﾅ") == 4)
        #expect(DisplayWidth.of("ｶﾞ") == 2) // the voiced mark is a spacing character of its own
    }

    @Test func hangulJamoSequencesAreOneSyllableWide() {
        #expect(DisplayWidth.of("\u{1100}\u{1161}\u{11A8}") == 2) // ᄀ ᅡ ᆨ = 각
        #expect(DisplayWidth.of(scalar: "\u{1161}") == 0)
        #expect(DisplayWidth.of(scalar: "\u{11A8}") == 0)
    }

    @Test func emojiAreTwoColumnsHoweverManyScalarsTheyJoin() {
        #expect(DisplayWidth.of("😀") == 2)
        #expect(DisplayWidth.of("👨\u{200D}👩\u{200D}👧") == 2)
        #expect(DisplayWidth.of("👩\u{200D}💻") == 2)
        #expect(DisplayWidth.of("🏳\u{FE0F}\u{200D}🌈") == 2)
        #expect(DisplayWidth.of("🇯🇵") == 2)
        #expect(DisplayWidth.of("🇯🇵🇮🇹") == 4)
        #expect(DisplayWidth.of("👍🏽") == 2)
        #expect(DisplayWidth.of("❤\u{FE0F}") == 2)
        #expect(DisplayWidth.of("1\u{FE0F}\u{20E3}") == 2)
        #expect(DisplayWidth.of("🫨") == 2) // Unicode 15
        #expect(DisplayWidth.of("🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}") == 2)
        #expect(DisplayWidth.of("great 🎉🎉 news") == 15)
    }

    @Test func textStyleSymbolsAreOneColumn() {
        #expect(DisplayWidth.of("❤") == 1)
        #expect(DisplayWidth.of("☀") == 1)
        #expect(DisplayWidth.of("♥") == 1)
        // The renderer's own symbols.
        for symbol in ["●", "⟲", "↩", "♥", "❝", "·", "…", "␛", "␍", "\u{FFFD}"] {
            #expect(DisplayWidth.of(symbol) == 1, "\(symbol)")
        }
        #expect(DisplayWidth.of("📎") == 2)
    }

    @Test func combiningMarksAndFormatCharactersTakeNoColumns() {
        #expect(DisplayWidth.of("e\u{301}") == 1)
        #expect(DisplayWidth.of("Rene\u{301}e") == 5)
        #expect(DisplayWidth.of("Nguye\u{302}\u{303}n") == 6)
        #expect(DisplayWidth.of(scalar: "\u{301}") == 0)
        #expect(DisplayWidth.of(scalar: "\u{200B}") == 0)
        #expect(DisplayWidth.of(scalar: "\u{200D}") == 0)
        #expect(DisplayWidth.of(scalar: "\u{FE0F}") == 0)
        #expect(DisplayWidth.of(scalar: "\u{20E3}") == 0)
        #expect(DisplayWidth.of("a\u{200B}b") == 2)
    }

    @Test func controlsTakeNoColumns() {
        #expect(DisplayWidth.of(scalar: "\u{1b}") == 0)
        #expect(DisplayWidth.of(scalar: "\u{7f}") == 0)
        #expect(DisplayWidth.of(scalar: "\u{9b}") == 0)
    }

    @Test func complexScriptsCountEverySpacingLetter() {
        // Thai: vowel and tone marks above and below are combining.
        #expect(DisplayWidth.of("สวัสดี") == 4)
        #expect(DisplayWidth.of("ภาษาไทย") == 7)
        // Sara am is a spacing letter that clusters with the consonant; terminals give it a cell.
        #expect(DisplayWidth.of("กำ") == 2)
        // Devanagari: the virama and the vowel signs above and below are combining; those
        // written beside the consonant (ि, ी) are spacing marks that terminals give a cell.
        #expect(DisplayWidth.of("नमस्ते") == 4)
        #expect(DisplayWidth.of("हिन्दी") == 5)
        // Arabic and Hebrew: one column per letter, harakat and niqqud combining.
        #expect(DisplayWidth.of("مرحبا") == 5)
        #expect(DisplayWidth.of("مَرْحَبًا") == 5)
        #expect(DisplayWidth.of("שָׁלוֹם") == 4)
    }

    @Test func stringsMeasureTheSameAsTheirCharacters() {
        let samples = [
            "Mixed 日本語 text with emoji 👨‍👩‍👧 and flags 🇳🇴🇬🇭, ❤️ and ❤, e\u{301}, กำ, नमस्ते",
            "  leading and trailing  ", " \u{301}combining after a space", "🏳️‍🌈 ⌨️📈 1️⃣2️⃣3️⃣ 🙇‍♀️ 🐈‍⬛ 😵‍💫",
            "Olúwasẹ́un Adé", "ياسمين الحداد", "emoji👍🏽glued", "\u{FE0F}lone selector",
        ]
        for sample in samples {
            let byCharacter = sample.reduce(0) { $0 + DisplayWidth.of(character: $1) }
            #expect(DisplayWidth.of(sample) == byCharacter, "\(sample)")
            #expect(DisplayWidth.of(sample.dropFirst()) == byCharacter - DisplayWidth.of(character: sample.first!))
        }
    }

    @Test func everyScalarsWidthFollowsItsUnicodeProperties() {
        var mismatches: [String] = []
        // Planes 4 to 13 hold nothing, and 15 and 16 only private use.
        for value in Array(UInt32(0)...0x3FFFF) + Array(UInt32(0xE0000)...0xE0FFF) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let properties = scalar.properties
            let expected: Int
            if value < 0x20 || (0x7F..<0xA0).contains(value) {
                expected = 0
            } else if [.nonspacingMark, .enclosingMark, .format].contains(properties.generalCategory)
                || (0x1160...0x11FF).contains(value) || (0xD7B0...0xD7FF).contains(value) {
                expected = 0
            } else if properties.isEmojiPresentation || EastAsianWidthTable.isWide(value) {
                expected = 2
            } else {
                expected = 1
            }
            if DisplayWidth.of(scalar: scalar) != expected { mismatches.append("U+" + String(value, radix: 16, uppercase: true)) }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }

    @Test func theEastAsianWidthTableIsSortedAndDisjoint() {
        let ranges = EastAsianWidthTable.wideRanges
        #expect(ranges.count % 2 == 0)
        for index in stride(from: 0, to: ranges.count, by: 2) {
            #expect(ranges[index] <= ranges[index + 1])
            if index > 0 { #expect(ranges[index - 1] < ranges[index]) }
        }
        #expect(EastAsianWidthTable.isWide(0x1100))
        #expect(EastAsianWidthTable.isWide(0x115F))
        #expect(!EastAsianWidthTable.isWide(0x1160))
        #expect(EastAsianWidthTable.isWide(0x3FFFD))
        #expect(!EastAsianWidthTable.isWide(0x3FFFE))
        #expect(!EastAsianWidthTable.isWide(0x41))
        #expect(!EastAsianWidthTable.isWide(0xFF61)) // halfwidth ideographic full stop
        #expect(EastAsianWidthTable.isWide(0xFF01)) // fullwidth exclamation mark
    }
}
