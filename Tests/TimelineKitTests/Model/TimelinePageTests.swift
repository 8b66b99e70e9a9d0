import Testing
@testable import TimelineKit

@Suite struct TimelinePageTests {
    @Test func aPrefixKeepsTheOriginalsOfTheRepostsItKeeps() {
        var repost = Samples.message(10, text: "")
        repost.repostOfID = "m2"
        let page = TimelinePage(messages: [repost, Samples.message(3), Samples.message(2), Samples.message(1)],
                                related: [], users: [Samples.alice])
        let first = page.prefix(2)
        #expect(first.messages.map(\.id) == ["m10", "m3"])
        #expect(first.related.map(\.id) == ["m2"])
        #expect(first.nextCursor == Samples.message(3).cursor)
        #expect(page.prefix(9) == page)
    }
}
