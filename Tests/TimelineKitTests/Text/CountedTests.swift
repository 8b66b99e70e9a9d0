import Testing
import TimelineKit

@Suite struct CountedTests {
    @Test(arguments: [
        (0, "0 messages"), (1, "1 message"), (2, "2 messages"), (999, "999 messages"),
        (1_000, "1,000 messages"), (47_625, "47,625 messages"), (1_234_567, "1,234,567 messages"), (-1, "-1 messages"),
    ])
    func aCountIsGroupedAndTakesTheSingularOnlyForOne(count: Int, words: String) {
        #expect(Counted(count, "message").description == words)
    }

    @Test func anIrregularPluralIsGiven() {
        #expect("\(Counted(1, "reply", plural: "replies"))" == "1 reply")
        #expect("\(Counted(3, "reply", plural: "replies"))" == "3 replies")
    }

    @Test(arguments: [(0, "0"), (-100, "-100"), (-1_000, "-1,000"), (100_000, "100,000"), (Int.min, "-9,223,372,036,854,775,808")])
    func negativeNumbersAreGroupedLikePositiveOnes(number: Int, grouped: String) {
        #expect(Counted.grouped(number) == grouped)
    }
}
