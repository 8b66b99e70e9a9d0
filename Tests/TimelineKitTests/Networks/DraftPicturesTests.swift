import Testing
@testable import TimelineKit

/// The pictures named at the end of a draft written in the editor (issue 36, `browse`'s `r`):
/// which lines count, the line each refusal names, and `~`.
@Suite struct DraftPicturesTests {
    @Test func aTrailingBlockOfImageAndAltLinesIsThePicturesWithTheirLines() throws {
        let file = DraftFile.contents(text: "Look\n\nimage: a.png\nalt: First, with: a colon\n\nimage:  ~/b.jpg \nalt: Second",
                                      help: DraftFile.help(for: .reply, takesPictures: true))
        let read = try DraftPictures.read(file)
        #expect(read.text == "Look")
        #expect(read.entries == [DraftPictures.Entry(path: "a.png", alt: "First, with: a colon", line: 3),
                                 DraftPictures.Entry(path: "~/b.jpg", alt: "Second", line: 6)])
        let pictures = read.pictures(home: "/home/me")
        #expect(pictures.map(\.file) == ["a.png", "/home/me/b.jpg"])
        #expect(pictures.map(\.name) == ["a.png", "~/b.jpg"])
        #expect(read.line(of: "~/b.jpg") == 6)
    }

    @Test func imageInTheMiddleOrAnAltUnderNoPictureIsText() throws {
        let middle = try DraftPictures.read("image: not a file\nis what I said\n")
        #expect(middle.entries.isEmpty && middle.text == "image: not a file\nis what I said")
        let alt = try DraftPictures.read("Tagged it\nalt: text is for pictures\n# help\n")
        #expect(alt.entries.isEmpty && alt.text == "Tagged it\nalt: text is for pictures")
        // Capitals are text: the help writes the keywords in lower case.
        #expect(try DraftPictures.read("Hi\nImage: x.png\nAlt: y\n").entries.isEmpty)
    }

    @Test func eachRefusalNamesItsLine() {
        #expect(throws: DraftPictures.Failure.missingAlt(path: "a.png", line: 3)) { try DraftPictures.read("Hi\n\nimage: a.png\n") }
        #expect(throws: DraftPictures.Failure.missingAlt(path: "a.png", line: 2)) { try DraftPictures.read("Hi\nimage: a.png\nalt:\n") }
        #expect(throws: DraftPictures.Failure.secondAlt(line: 4, imageLine: 2)) { try DraftPictures.read("Hi\nimage: a.png\nalt: one\nalt: two\n") }
        #expect(throws: DraftPictures.Failure.noPath(line: 2)) { try DraftPictures.read("Hi\nimage:\nalt: one\n") }
        #expect(throws: DraftPictures.Failure.noText(line: 1)) { try DraftPictures.read("image: a.png\nalt: one\n") }
        let five = "Hi\n" + (1 ... 5).map { "image: \($0).png\nalt: \($0)\n" }.joined()
        #expect(throws: DraftPictures.Failure.tooMany(line: 10, limit: 4)) { try DraftPictures.read(five) }
    }

    @Test func theHelpSaysHowAndWhyItWasNotPostedNeutralised() {
        let help = DraftFile.help(for: .reply, takesPictures: true, notPosted: "line 3: \u{1b}[2J gone")
        #expect(help.contains { $0.hasPrefix("# Pictures (up to 4):") })
        #expect(help.contains("# Not posted: line 3: ␛[2J gone"), "\(help)")
        #expect(help.allSatisfy { $0 == "#" || $0.hasPrefix("# ") })
        #expect(!DraftFile.help(for: .reply).contains { $0.contains("image:") })
    }
}
