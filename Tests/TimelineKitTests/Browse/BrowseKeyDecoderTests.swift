import Testing
@testable import TimelineKit

@Suite struct BrowseKeyDecoderTests {
    private func decode(_ chunks: [UInt8]..., flush: Bool = false) -> [BrowseKey] {
        var decoder = BrowseKeyDecoder()
        var keys: [BrowseKey] = []
        for chunk in chunks {
            decoder.feed(chunk)
            keys += decoder.keys()
        }
        if flush {
            decoder.flush()
            keys += decoder.keys()
        }
        return keys
    }

    private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    @Test func printableCharactersAreCharacters() {
        #expect(decode(bytes("jk/?G ")) == [.character("j"), .character("k"), .character("/"), .character("?"), .character("G"), .character(" ")])
    }

    @Test func arrowsInBothCursorKeyModes() {
        #expect(decode(bytes("\u{1b}[A\u{1b}[B\u{1b}[C\u{1b}[D")) == [.up, .down, .right, .left])
        #expect(decode(bytes("\u{1b}OA\u{1b}OB")) == [.up, .down])
    }

    @Test func pageHomeAndEndKeysInTheirUsualSpellings() {
        #expect(decode(bytes("\u{1b}[5~\u{1b}[6~")) == [.pageUp, .pageDown])
        #expect(decode(bytes("\u{1b}[H\u{1b}[1~\u{1b}[7~\u{1b}OH")) == [.home, .home, .home, .home])
        #expect(decode(bytes("\u{1b}[F\u{1b}[4~\u{1b}[8~\u{1b}OF")) == [.end, .end, .end, .end])
    }

    @Test func controlKeysEnterAndBackspace() {
        #expect(decode([0x06, 0x02, 0x0C, 0x0D, 0x0A, 0x7F, 0x08]) == [.control("f"), .control("b"), .control("l"), .enter, .enter, .backspace, .backspace])
    }

    @Test func aLoneEscapeWaitsForTheRestThenIsTheEscapeKey() {
        var decoder = BrowseKeyDecoder()
        decoder.feed([0x1B])
        #expect(decoder.keys().isEmpty)
        #expect(decoder.isHoldingEscape)
        decoder.flush()
        #expect(decoder.keys() == [.escape])
        #expect(!decoder.isHoldingEscape)
    }

    @Test func aSequenceSplitAcrossReadsIsOneKey() {
        #expect(decode([0x1B], [0x5B], [0x36, 0x7E]) == [.pageDown])
        #expect(decode([0x1B, 0x5B], [0x42]) == [.down])
    }

    @Test func escapeFollowedByAnotherKeyIsBoth() {
        #expect(decode(bytes("\u{1b}q")) == [.escape, .character("q")])
    }

    @Test func sequencesItDoesNotUseAreUnknownNotTyped() {
        // F5 and a cut sequence at the end.
        #expect(decode(bytes("\u{1b}[15~j")) == [.unknown, .character("j")])
        #expect(decode(bytes("\u{1b}[1;5"), flush: true) == [.unknown])
    }

    @Test func utf8CharactersWholeEvenWhenSplit() {
        #expect(decode([0xC3], [0xA9]) == [.character("é")])
        #expect(decode(bytes("天")) == [.character("天")])
        #expect(decode([0x80, 0x6A]) == [.unknown, .character("j")])
    }
}
