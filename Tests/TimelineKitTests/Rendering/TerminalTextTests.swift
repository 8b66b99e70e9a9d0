import Testing
@testable import TimelineKit

@Suite struct TerminalTextTests {
    @Test func printableTextIsReturnedAsItIs() {
        for text in ["", "Hello, timeline!", "multi\nline", "Ünïcödé — “quotes”, 日本語, 👩‍💻 🇯🇵 👍🏽"] {
            #expect(TerminalText.body(text) == text)
        }
        #expect(TerminalText.line("Alice Liddell") == "Alice Liddell")
        #expect(TerminalText.line("田中 健二") == "田中 健二")
    }

    @Test func everyC0ControlBecomesItsControlPicture() throws {
        for value in UInt32(0)..<0x20 where ![0x09, 0x0A, 0x0D].contains(value) {
            let control = Character(try #require(Unicode.Scalar(value)))
            let picture = Character(try #require(Unicode.Scalar(0x2400 + value)))
            #expect(TerminalText.body("a\(control)b") == "a\(picture)b")
            #expect(TerminalText.line("a\(control)b") == "a\(picture)b")
        }
        #expect(TerminalText.body("\u{1b}") == "␛")
        #expect(TerminalText.body("\u{07}") == "␇")
        #expect(TerminalText.body("\u{0}") == "␀")
    }

    @Test func deleteBecomesItsControlPicture() {
        #expect(TerminalText.body("a\u{7f}b") == "a␡b")
        #expect(TerminalText.line("a\u{7f}b") == "a␡b")
    }

    @Test func everyC1ControlBecomesTheReplacementCharacter() throws {
        for value in UInt32(0x80)...0x9F {
            let control = Character(try #require(Unicode.Scalar(value)))
            #expect(TerminalText.body("a\(control)b") == "a\u{FFFD}b")
            #expect(TerminalText.line("a\(control)b") == "a\u{FFFD}b")
        }
    }

    @Test func escapeSequencesAreShownInsteadOfObeyed() {
        #expect(TerminalText.body("\u{1b}[2J\u{1b}[Hlol") == "␛[2J␛[Hlol")
        #expect(TerminalText.body("\u{1b}[31mRED ALERT\u{1b}[0m") == "␛[31mRED ALERT␛[0m")
        #expect(TerminalText.body("\u{1b}[?25l\u{1b}[8mhidden\u{1b}[0m\u{07}\u{07}\u{07}") == "␛[?25l␛[8mhidden␛[0m␇␇␇")
        #expect(TerminalText.body("\u{1b}]0;pwned\u{07}") == "␛]0;pwned␇")
        #expect(TerminalText.body("\u{1b}]8;;http://evil.example\u{1b}\\click\u{1b}]8;;\u{1b}\\")
            == "␛]8;;http://evil.example␛\\click␛]8;;␛\\")
        #expect(TerminalText.body("\u{1b}P1$r0m\u{1b}\\") == "␛P1$r0m␛\\")
        #expect(TerminalText.body("\u{9b}31mC1 CSI red?\u{9b}0m") == "\u{FFFD}31mC1 CSI red?\u{FFFD}0m")
    }

    @Test func textThatOnlyLooksLikeAnEscapeIsKept() {
        let text = "ESC[6n is only text, and so is ESC \\"
        #expect(TerminalText.body(text) == text)
    }

    @Test func escapeSequencesInNamesAreNeutralised() {
        #expect(TerminalText.line("\u{1b}[31mGl\u{200b}itch\u{1b}[0m \u{202e}NIMDA\u{202c}\u{1b}]0;pwned\u{07}")
            == "␛[31mGlitch␛[0m NIMDA␛]0;pwned␇")
        #expect(TerminalText.line("sneaky\u{1b}[2J\u{1b}[H\radmin") == "sneaky␛[2J␛[H␍admin")
    }

    @Test func aLoneCarriageReturnCannotOverwriteTheLine() {
        #expect(TerminalText.body("safe\rEVIL") == "safe␍EVIL")
        #expect(TerminalText.body("trailing\r") == "trailing␍")
        #expect(TerminalText.line("safe\rEVIL") == "safe␍EVIL")
    }

    @Test func crlfIsOneLineBreak() {
        #expect(TerminalText.body("one\r\ntwo\r\n\r\nthree") == "one\ntwo\n\nthree")
        #expect(TerminalText.body("a\r\r\nb") == "a␍\nb")
        #expect(TerminalText.line("one\r\ntwo") == "one two")
    }

    @Test func backspacesAreVisible() {
        #expect(TerminalText.body("abc\u{8}\u{8}\u{8}xyz") == "abc␈␈␈xyz")
    }

    @Test func tabsExpandToTheNextMultipleOfFourColumns() {
        #expect(TerminalText.body("\tx") == "    x")
        #expect(TerminalText.body("a\tb") == "a   b")
        #expect(TerminalText.body("abcd\tx") == "abcd    x")
        #expect(TerminalText.body("a\t\tb") == "a       b")
        #expect(TerminalText.body("日本\tx") == "日本    x")
        #expect(TerminalText.body("日本語\tx") == "日本語  x")
        #expect(TerminalText.body("👍🏽\tx") == "👍🏽  x")
        #expect(TerminalText.body("first line\nab\tc") == "first line\nab  c")
        #expect(TerminalText.body("abc\u{8}\u{8}\u{8}xyz\tcolumns\tgo") == "abc␈␈␈xyz   columns go")
    }

    @Test func singleLineFieldsTurnBreaksAndTabsIntoOneSpace() {
        #expect(TerminalText.line("Sneaky Pete\tthe\nSecond") == "Sneaky Pete the Second")
        #expect(TerminalText.line("a\n\n\t b") == "a b")
        #expect(TerminalText.line("  padded   name  ") == "padded name")
        #expect(TerminalText.line("wide\u{3000}space\u{A0}and\u{2028}separator") == "wide space and separator")
        #expect(TerminalText.line("\n\t ") == "")
    }

    @Test func lineAndParagraphSeparatorsBreakMessageText() {
        #expect(TerminalText.body("one\u{2028}two\u{2029}three") == "one\ntwo\nthree")
    }

    @Test func bidirectionalOverridesEmbeddingsAndIsolatesAreRemoved() {
        #expect(TerminalText.body("invoice_\u{202E}gpj.exe\u{202C}") == "invoice_gpj.exe")
        #expect(TerminalText.body("\u{202A}a\u{202B}b\u{202D}c\u{202C}") == "abc")
        #expect(TerminalText.body("\u{2066}a\u{2069} \u{2067}b\u{2069} \u{2068}c\u{2069}") == "a b c")
        #expect(TerminalText.line("\u{202E}NIMDA") == "NIMDA")
    }

    @Test func directionalMarksStayInTextButNotInNames() {
        let text = "\u{200F}שלום v1.2 \u{200E}ok \u{061C}"
        #expect(TerminalText.body(text) == text)
        #expect(TerminalText.line("\u{200F}name\u{200E}") == "name")
    }

    @Test func zeroWidthCharactersAreRemovedFromHandlesAndText() {
        #expect(TerminalText.line("pay\u{200B}pal") == "paypal")
        #expect(TerminalText.line("pay\u{200D}pal") == "paypal")
        #expect(TerminalText.line("pay\u{200C}pal") == "paypal")
        #expect(TerminalText.line("\u{FEFF}bom\u{2060}joiner\u{AD}") == "bomjoiner")
        #expect(TerminalText.body("pay\u{200B}pal \u{FEFF}bom \u{2060}joiner soft\u{AD}hyphen") == "paypal bom joiner softhyphen")
        #expect(TerminalText.body("a\u{FFF9}b\u{FFFA}c\u{FFFB}d") == "abcd")
    }

    @Test func joinersThatScriptsAndEmojiNeedAreKept() {
        let programmer = "👩\u{200D}💻"
        #expect(TerminalText.line(programmer) == programmer)
        #expect(TerminalText.body(programmer) == programmer)
        let persian = "می\u{200C}خواهم"
        #expect(TerminalText.body(persian) == persian)
        let sinhala = "ශ්\u{200D}රී"
        #expect(TerminalText.line(sinhala) == sinhala)
    }

    @Test func tagCharactersSurviveOnlyInsideFlagSequences() {
        let scotland = "🏴\u{E0067}\u{E0062}\u{E0073}\u{E0063}\u{E0074}\u{E007F}"
        #expect(TerminalText.body("flag \(scotland)!") == "flag \(scotland)!")
        #expect(TerminalText.line(scotland) == scotland)
        #expect(TerminalText.body("hidden\u{E0041}\u{E0042}text") == "hiddentext")
        #expect(TerminalText.body("\(scotland)\u{E0041}") == scotland)
    }

    @Test func aLeadingCombiningMarkGetsADottedCircleToSitOn() {
        #expect(TerminalText.line("\u{301}abc") == "◌\u{301}abc")
        #expect(TerminalText.line("  \u{301}abc") == "◌\u{301}abc")
        #expect(TerminalText.line("\u{202E}\u{301}abc") == "◌\u{301}abc")
        #expect(TerminalText.body("a\n\u{301}b") == "a\n◌\u{301}b")
        #expect(TerminalText.body("\u{1F3FD}skin") == "◌\u{1F3FD}skin")
        // Anywhere else a mark belongs to the cluster before it.
        #expect(TerminalText.body("ok \u{301}") == "ok \u{301}")
        #expect(TerminalText.line("ok \u{301}") == "ok \u{301}")
    }

    @Test func privateUseAndUnassignedCodePointsStay() {
        let text = "\u{E000}\u{F8FF}\u{10FFFD}\u{0378}"
        #expect(TerminalText.body(text) == text)
        #expect(TerminalText.line(text) == text)
    }

    @Test func neutralisedTextNeverHoldsAnythingATerminalActsOn() {
        var inputs = RenderingSamples.hostileStrings
        // Every scalar below U+00A0, and every format character, in one string.
        var everything = ""
        for value in UInt32(0)..<0xA0 { everything.unicodeScalars.append(Unicode.Scalar(value)!) }
        for value in [0xAD, 0x61C, 0x180E, 0x200B, 0x200C, 0x200D, 0x200E, 0x200F, 0x2028, 0x2029, 0x2060, 0x2064, 0xFEFF, 0x110BD, 0x13430, 0x1D173, 0xE0001] as [UInt32] {
            everything.unicodeScalars.append(Unicode.Scalar(value)!)
        }
        for value in UInt32(0x202A)...0x202E { everything.unicodeScalars.append(Unicode.Scalar(value)!) }
        for value in UInt32(0x2066)...0x206F { everything.unicodeScalars.append(Unicode.Scalar(value)!) }
        inputs.append(everything)
        for input in inputs {
            let body = TerminalText.body(input)
            for paragraph in body.split(separator: "\n", omittingEmptySubsequences: false) {
                RenderingSamples.expectInert(String(paragraph))
            }
            let line = TerminalText.line(input)
            RenderingSamples.expectInert(line)
            for scalar in line.unicodeScalars {
                #expect(scalar.properties.generalCategory != .format || scalar.value == 0x200D)
            }
        }
    }

    @Test func formatAndSpaceCharactersMatchTheStandardLibrarysUnicodeData() {
        var mismatches: [String] = []
        // Planes 4 to 13 hold nothing, and 15 and 16 only private use.
        for value in Array(UInt32(0)...0x3FFFF) + Array(UInt32(0xE0000)...0xE0FFF) {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let category = scalar.properties.generalCategory
            if TerminalText.isFormat(value) != (category == .format) || TerminalText.isSpaceSeparator(value) != (category == .spaceSeparator) {
                mismatches.append("U+" + String(value, radix: 16, uppercase: true))
            }
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(20))")
    }
}
