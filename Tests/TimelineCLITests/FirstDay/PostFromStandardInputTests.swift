import Foundation
import Testing

/// `echo text | timeline post -` posts the text, not a `-` (issue 23, item 8).
@Suite struct PostFromStandardInputTests {
    @Test func aDashReadsTheTextFromStandardInputAndPublishesIt() throws {
        let server = try MastodonTestServer()
        let home = try NextStepTests.loggedIn(server)
        let posted = try home.timeline.run(["post", "--json", "-"], input: Data("Written in a pipe\n".utf8))
        #expect(posted.status == 0, "\(posted.errors)")
        #expect(try home.timeline.run(["show", "--format", "{text}", "-n", "1"]).output == "Written in a pipe\n")
    }

    @Test func noTextArgumentOnAPipeReadsStandardInputToo() throws {
        let server = try MastodonTestServer()
        let home = try NextStepTests.loggedIn(server)
        let posted = try home.timeline.run(["post"], input: Data("two\nlines\n\n".utf8))
        #expect(posted.status == 0, "\(posted.errors)")
        // The loopback server writes the line break into the status's HTML as a space.
        #expect(try home.timeline.run(["show", "--format", "{text}", "-n", "1"]).output == "two lines\n")
    }

    @Test func anEmptyTextIsRefusedAndNothingIsSent() throws {
        let server = try MastodonTestServer()
        let home = try NextStepTests.loggedIn(server)
        let before = try server.requests().count
        for (arguments, input) in [(["post", "-"], ""), (["post"], " \n\n"), (["post", "  "], "")] {
            let refused = try home.timeline.run(arguments, input: Data(input.utf8))
            #expect(refused.status == 64, "\(arguments): \(refused.errors)")
            #expect(refused.errors.contains("empty"), "\(refused.errors)")
        }
        #expect(try server.requests().count == before)
    }
}
