import Foundation
import Testing
import TimelineKit

/// Short references a person can type (issue 23, item 7): painted beside each entry, the same
/// at every paint, taken by every command that takes a message.
@Suite struct ShortReferenceCommandTests {
    @Test func referencesAreLettersThatReadBackToTheirSequenceAndNeverLookLikeNumbers() {
        for sequence: Int64 in [1, 19, 20, 399, 400, 7_999, 8_000, 159_999, 160_000, 3_199_999, 1 << 40] {
            let reference = ShortReference(sequence: sequence)
            #expect(reference.text.count >= 3)
            #expect(reference.text.allSatisfy { "bcdfghjklmnpqrstvwxz".contains($0) })
            #expect(ShortReference.sequence(of: reference.text) == sequence)
        }
        #expect(ShortReference(sequence: 8_000).text.count == 4)
        for notOne in ["", "bk", "abc", "b1d", "BKD", "bkd!", String(repeating: "z", count: 13)] {
            #expect(ShortReference.sequence(of: notOne) == nil, "\(notOne)")
        }
    }

    @Test func showPaintsTheReferenceAndEveryCommandTakesIt() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let first = try scenario.timeline.runInTerminal(["show", "-n", "3", "--color", "never"])
        let references = try scenario.timeline.run(["show", "-n", "3", "--format", "{ref}"]).output.split(separator: "\n").map(String.init)
        #expect(references.count == 3 && Set(references).count == 3)
        for reference in references { #expect(first.output.contains(" · \(reference)"), "\(first.output)") }

        // The same at the next paint, from the snapshot, and after an update of the message.
        let ids = try scenario.timeline.run(["show", "-n", "3", "--format", "{id}"]).output.split(separator: "\n").map(String.init)
        #expect(try scenario.timeline.run(["mark-read", "--unread", ids[0]]).status == 0)
        #expect(try scenario.timeline.run(["show", "-n", "3", "--format", "{ref}"]).output.split(separator: "\n").map(String.init) == references)
        let json = try scenario.timeline.run(["show", "-n", "1", "--json"]).output
        #expect(json.contains("\"ref\":\"\(references[0])\""))

        // Taken wherever a message is.
        #expect(try scenario.timeline.run(["thread", references[1], "--json"]).output.contains("\"id\":\"\(ids[1])\""))
        #expect(try scenario.timeline.run(["mark-read", references[0]]).status == 0)
        #expect(try scenario.timeline.run(["delete", "--local", references[2]]).output == "Forgot 1 message here only.\n")
        #expect(try scenario.timeline.run(["thread", ids[2]]).status == 65)
        // A reference of no stored message is said as any unknown ID.
        #expect(try scenario.timeline.run(["thread", references[2]]).status == 65)
        // The others keep theirs.
        #expect(try scenario.timeline.run(["show", "-n", "2", "--format", "{ref}"]).output.split(separator: "\n").map(String.init) == Array(references.prefix(2)))
    }
}
