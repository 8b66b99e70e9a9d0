import Testing
@testable import TimelineKit

/// What a person saw, marked read by the library (issue 26: the CLI used to decide it): the
/// messages shown, and the posts their reposts and quotes show inside them; nothing else.
@Suite struct ShownMessagesTests {
    @Test func aRepostOrQuoteShownMarksWhatItShowsRead() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var repost = Samples.message(5)
        repost.repostOfID = "m1"
        var quote = Samples.message(6)
        quote.quoteOfID = "m2"
        try store.upsert(messages: Samples.messages(1...4) + [repost, quote])
        let page = try store.timeline(limit: 10)

        #expect(try store.markShownRead(["m6", "m5", "m4"], of: page) == 5)
        let read = Set(try store.timeline(limit: 10).messages.filter(\.isRead).map(\.id))
        #expect(read == ["m1", "m2", "m4", "m5", "m6"])
        // A message not in the page is still marked (it was shown), without what it would show.
        #expect(try store.markShownRead(["m3"], of: TimelinePage(messages: [], related: [], users: [])) == 1)
    }
}
