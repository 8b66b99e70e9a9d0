import Testing
@testable import TimelineKit

@Suite struct TerminalPictureEncodingTests {
    @Test func base64MatchesRFC4648sVectors() {
        let vectors = ["": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=", "foobar": "Zm9vYmFy"]
        for (plain, encoded) in vectors {
            #expect(String(decoding: TerminalPictureEncoding.base64(Array(plain.utf8)), as: UTF8.self) == encoded)
        }
    }

    @Test func aSmallPNGIsOneKittySequenceWithMZero() {
        let png = PictureSamples.png(width: 1, height: 1)
        let bytes = TerminalPictureEncoding.kitty(png: png, columns: 40, rows: 12)
        let expected = "\u{1b}_Ga=T,f=100,t=d,c=40,r=12,C=1,q=2,m=0;"
            + String(decoding: TerminalPictureEncoding.base64(png), as: UTF8.self) + "\u{1b}\\"
        #expect(String(decoding: bytes, as: UTF8.self) == expected)
    }

    @Test func aLargerPictureIsSentInChunksOf4096TheLastWithMZero() {
        // 3 × 4096 base64 characters and 4 more: four chunks.
        let file = [UInt8](repeating: 0xAB, count: 3 * 3072 + 3)
        let text = String(decoding: TerminalPictureEncoding.kitty(png: file, columns: 10, rows: 5), as: UTF8.self)
        let sequences = text.split(separator: "\u{1b}\\", omittingEmptySubsequences: true).map(String.init)
        #expect(sequences.count == 4)
        #expect(sequences[0].hasPrefix("\u{1b}_Ga=T,f=100,t=d,c=10,r=5,C=1,q=2,m=1;"))
        #expect(sequences[1].hasPrefix("\u{1b}_Gm=1;") && sequences[2].hasPrefix("\u{1b}_Gm=1;"))
        #expect(sequences[3] == "\u{1b}_Gm=0;q6ur")
        for sequence in sequences {
            let payload = sequence.split(separator: ";", maxSplits: 1)[1]
            #expect(payload.count <= TerminalPictureEncoding.kittyChunk)
        }
        let joined = sequences.map { $0.split(separator: ";", maxSplits: 1)[1] }.joined()
        #expect(Array(joined.utf8) == TerminalPictureEncoding.base64(file))
    }

    @Test func iTerm2GetsTheFileAsItIsWithItsSizeAndCells() {
        let file: [UInt8] = [0xFF, 0xD8, 0xFF, 0x1B, 0x07]
        let text = String(decoding: TerminalPictureEncoding.iTerm2(file: file, columns: 30, rows: 9), as: UTF8.self)
        #expect(text == "\u{1b}]1337;File=inline=1;size=5;width=30;height=9;preserveAspectRatio=1:/9j/Gwc=\u{7}")
    }

    @Test func kittyDeleteAllFreesEveryPicture() {
        #expect(TerminalPictureEncoding.kittyDeleteAll == Array("\u{1b}_Ga=d,d=A,q=2\u{1b}\\".utf8))
    }
}
