import Foundation
import Testing
import TimelineFeeds

@Suite struct FeedDateTests {
    static func seconds(_ text: String) -> Double? { FeedDate.parse(text)?.timeIntervalSince1970 }

    // 2002-09-07T09:42:31Z, the example of the RSS 2.0 spec, is 1031391751 s after 1970.
    @Test(arguments: [
        "Sat, 07 Sep 2002 09:42:31 GMT", "Sat, 7 Sep 2002 09:42:31 GMT", "07 Sep 2002 09:42:31 GMT",
        "Sat, 07 Sep 02 09:42:31 GMT", "Saturday, 07 September 2002 09:42:31 UT", "Sat, 07-Sep-2002 09:42:31 GMT",
        "Sat, 07 Sep 2002 11:42:31 +0200", "Sat, 07 Sep 2002 11:42:31 +02:00", "Sat, 07 Sep 2002 05:42:31 EDT",
        "Sat, 07 Sep 2002 09:42:31", "sat, 07 sep 2002 09:42:31 z", "Sat, 07 Sep 2002 09:42:31 Z",
        "2002-09-07T09:42:31Z", "2002-09-07T11:42:31+02:00", "2002-09-07T11:42:31+0200", "2002-09-07 09:42:31Z",
        "2002-09-07t09:42:31z", "2002-09-07T09:42:31", "2002-09-07T04:42:31-05", "  2002-09-07T09:42:31Z\n",
    ])
    func realWorldSpellingsOfOneInstantAllReadAsIt(_ text: String) {
        #expect(Self.seconds(text) == 1_031_391_751)
    }

    @Test func aMissingSecondsFieldIsZero() {
        #expect(Self.seconds("Sat, 07 Sep 2002 09:42 GMT") == 1_031_391_720)
    }

    @Test func aFractionIsKept() {
        #expect(Self.seconds("2002-09-07T09:42:31.250Z") == 1_031_391_751.25)
    }

    @Test func aDateAloneIsMidnightUTC() {
        #expect(Self.seconds("2002-09-07") == 1_031_356_800)
        #expect(Self.seconds("7 Sep 2002") == 1_031_356_800)
    }

    @Test(arguments: ["", "yesterday", "2002-13-07T00:00:00Z", "2002-02-30", "Sat, 07 Sep 2002 25:00:00 GMT",
                      "Sat, 32 Sep 2002 09:42:31 GMT", "2002-09-07T09:42:31+25:00", "Sat, 07 Foo 2002", "12345"])
    func nonsenseAndOutOfRangeFieldsAreNoDate(_ text: String) {
        #expect(FeedDate.parse(text) == nil)
    }

    @Test func aLeapYearHasItsTwentyNinthOfFebruary() {
        #expect(Self.seconds("2024-02-29T00:00:00Z") == 1_709_164_800)
        #expect(FeedDate.parse("2023-02-29T00:00:00Z") == nil)
    }
}
