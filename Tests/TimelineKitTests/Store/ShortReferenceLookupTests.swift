import Foundation
import Testing
@testable import TimelineKit

/// A short reference is found by its key: no scan of the table for a server's ID ending the
/// same (a whole table at 1M messages), even when one does.
@Suite struct ShortReferenceLookupTests {
    @Test func aShortReferenceNamesItsMessageEvenWhenAServersIDIsTheSameLetters() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        let first = try #require(try store.message(id: "m1"))
        let reference = first.shortReference.text
        // A post of a server whose IDs are letters, ending as the reference reads.
        try store.upsert(messages: [Message(id: "letters.example/" + reference, authorID: Samples.alice.id, text: "same letters",
                                            createdAt: Samples.epoch)])
        #expect(try store.resolveMessageReferences([reference]) == ["m1"])
        // The server's ID, named with its server, is still that post.
        #expect(try store.resolveMessageReferences(["letters.example/" + reference]) == ["letters.example/" + reference])
    }
}
