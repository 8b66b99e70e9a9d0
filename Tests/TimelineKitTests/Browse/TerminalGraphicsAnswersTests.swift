import Testing
@testable import TimelineKit

@Suite struct TerminalGraphicsAnswersTests {
    private func read(_ parts: [String]) -> TerminalGraphicsAnswers {
        var answers = TerminalGraphicsAnswers()
        for part in parts { answers.feed(Array(part.utf8)) }
        return answers
    }

    static let kittyOK = "\u{1b}_Gi=31;OK\u{1b}\\"
    static let da1Sixel = "\u{1b}[?62;4;22c"
    static let da1Plain = "\u{1b}[?62;22c"

    @Test func theQueryAsksKittyXTVersionAndDeviceAttributesInOneString() {
        #expect(TerminalGraphicsAnswers.query == "\u{1b}_Gi=31,s=1,v=1,a=q,t=d,f=24;AAAA\u{1b}\\\u{1b}[>q\u{1b}[c")
    }

    @Test func kittysOKThenDA1IsKittyEvenWithSixel() {
        let answers = read([Self.kittyOK + "\u{1b}P>|kitty(0.35.2)\u{1b}\\" + Self.da1Sixel])
        #expect(answers.isComplete)
        #expect(answers.graphics == .kitty)
        #expect(answers.keys.isEmpty)
    }

    @Test func anAnswerSplitAcrossReadsByteByByteIsRead() {
        let whole = Self.kittyOK + Self.da1Plain
        let answers = read(whole.map { String($0) })
        #expect(answers.isComplete && answers.graphics == .kitty && answers.keys.isEmpty)
        let partial = read([String(whole.prefix(5))])
        #expect(!partial.isComplete && partial.graphics == .none)
    }

    @Test func aKittyErrorIsNotKitty() {
        let answers = read(["\u{1b}_Gi=31;ENOTSUPPORTED:no\u{1b}\\" + Self.da1Plain])
        #expect(answers.isComplete && answers.graphics == .none)
    }

    @Test func xtversionNamingITerm2OrWezTermMeansInlineImagesAndWinsOverSixel() {
        #expect(read(["\u{1b}P>|iTerm2 3.5.0\u{1b}\\" + Self.da1Sixel]).graphics == .iTerm2)
        #expect(read(["\u{1b}P>|WezTerm 20240203-110809-5046fc22\u{1b}\\" + Self.da1Plain]).graphics == .iTerm2)
        #expect(read(["\u{1b}P>|XTerm(390)\u{1b}\\" + Self.da1Sixel]).graphics == .sixel)
    }

    @Test func tmuxWithoutPassthroughAnswersOnlyDA1() {
        let answers = read([Self.da1Plain])
        #expect(answers.isComplete && answers.graphics == .none && answers.keys.isEmpty)
        #expect(read(["\u{1b}[?1;2;4c"]).graphics == .sixel)
        // A parameter that only contains a 4 is not sixel.
        #expect(read(["\u{1b}[?62;42c"]).graphics == .none)
    }

    @Test func keysTypedBeforeBetweenAndAfterTheAnswersAreKeptInOrder() {
        let answers = read(["j", Self.kittyOK, "\u{1b}[A", "k", Self.da1Plain, "q"])
        #expect(answers.graphics == .kitty)
        #expect(answers.keys == Array("j\u{1b}[Ak".utf8) + Array("q".utf8))
    }

    @Test func garbageIsKeysAndNothingIsDetected() {
        let answers = read(["\u{1b}_Gi=31;OK", "\u{1b}xyz"])
        #expect(!answers.isComplete)
        var finished = answers
        finished.finish()
        #expect(finished.isComplete && finished.graphics == .none)
    }

    @Test func veryLongGarbageEndsTheReadingAtTheByteLimit() {
        var answers = TerminalGraphicsAnswers()
        // An APC that never ends: the reader stops at the limit and keeps the rest as keys.
        answers.feed(Array("\u{1b}_G".utf8) + [UInt8](repeating: UInt8(ascii: "x"), count: 100_000))
        #expect(answers.isComplete)
        #expect(answers.graphics == .none)
        #expect(answers.keys.count == 100_003)
    }

    @Test func terminalGraphicsPreferKittyThenITerm2ThenSixel() {
        #expect([TerminalGraphics.sixel, .kitty, .none, .iTerm2].sorted() == [.none, .sixel, .iTerm2, .kitty])
    }
}
