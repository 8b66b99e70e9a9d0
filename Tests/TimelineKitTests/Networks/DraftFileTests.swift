import Testing
@testable import TimelineKit

/// The file a post is written in with `$EDITOR` (issue 27): what is kept of it, and the help
/// that quotes the message replied to, neutralised.
@Suite struct DraftFileTests {
    @Test func helpLinesAreLeftOutAndAHashtagAtTheStartOfALineIsKept() {
        let written = "Agreed!\n#swift at the meetup\n\n# Write the reply above this line.\n#\n#\tindented help\n"
        #expect(DraftFile.text(from: written) == "Agreed!\n#swift at the meetup")
    }

    @Test func whiteSpaceAtBothEndsIsDroppedAndCRLFLinesAreLines() {
        #expect(DraftFile.text(from: "\n\n  Hello  \n\n") == "Hello")
        #expect(DraftFile.text(from: "Hello\r\n# help\r\nthere\r\n") == "Hello\nthere")
    }

    @Test func aFileLeftWithOnlyHelpIsEmpty() {
        let file = DraftFile.contents(text: "", help: DraftFile.help(for: .reply, about: ("alice", "Coffee?")))
        #expect(DraftFile.text(from: file).isEmpty)
    }

    @Test func theStartingTextComesBackAsItWasWhenLeftAlone() {
        let file = DraftFile.contents(text: "The old text\nwith #tags", help: DraftFile.help(for: .edit))
        #expect(DraftFile.text(from: file) == "The old text\nwith #tags")
    }

    @Test func theMessageRepliedToIsQuotedAsHelpNeutralisedAndCut() {
        let hostile = "Line one \u{1b}[2J\u{1b}]0;pwned\u{07}\n\nline three" + String(repeating: "\nmore", count: 20)
        let help = DraftFile.help(for: .reply, about: ("ev\u{1b}[31mil", hostile))
        #expect(help.allSatisfy { $0 == "#" || $0.hasPrefix("# ") })
        #expect(help.contains("# Replying to @ev␛[31mil:"))
        #expect(help.contains("# > Line one ␛[2J␛]0;pwned␇"))
        #expect(help.contains("# >"))
        #expect(help.last == "# > …")
        #expect(help.filter { $0.hasPrefix("# >") }.count == DraftFile.quotedLineLimit + 1)
        #expect(!help.joined().unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
        // None of it is kept as text.
        #expect(DraftFile.text(from: DraftFile.contents(text: "", help: help)).isEmpty)
    }
}
