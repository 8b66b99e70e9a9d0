import Foundation
import Testing
@testable import TimelineKit

@Suite struct RelativeTimeTests {
    private let now = RenderingSamples.now // 2026-11-22T12:00:00Z, a Sunday

    private func age(_ seconds: TimeInterval) -> String {
        RelativeTime(now: now, timeZone: .utc).string(for: now.addingTimeInterval(-seconds))
    }

    @Test func underAMinuteIsNow() {
        #expect(age(0) == "now")
        #expect(age(59) == "now")
        #expect(age(59.999) == "now")
    }

    @Test func minutesHoursAndDaysCountWholeUnits() {
        #expect(age(60) == "1m")
        #expect(age(119) == "1m")
        #expect(age(59 * 60) == "59m")
        #expect(age(60 * 60 - 1) == "59m")
        #expect(age(60 * 60) == "1h")
        #expect(age(23 * 3_600) == "23h")
        #expect(age(24 * 3_600 - 1) == "23h")
        #expect(age(24 * 3_600) == "1d")
        #expect(age(6 * 86_400) == "6d")
        #expect(age(7 * 86_400 - 1) == "6d")
    }

    @Test func aWeekOrOlderShowsTheDate() {
        #expect(age(7 * 86_400) == "Nov 15")
        #expect(age(30 * 86_400) == "Oct 23")
        #expect(age(325 * 86_400) == "Jan 1")
    }

    @Test func earlierYearsShowTheFullDate() {
        #expect(age(326 * 86_400) == "2025-12-31")
        #expect(age(385 * 86_400) == "2025-11-02")
        let longAgo = RelativeTime(now: now, timeZone: .utc)
        #expect(longAgo.string(for: Date(timeIntervalSince1970: 0)) == "1970-01-01")
        #expect(longAgo.string(for: Date(timeIntervalSince1970: -62_135_596_800 + 86_400 * 40)) == "0001-02-10")
        #expect(longAgo.string(for: .distantPast).count == 10)
    }

    /// 0001-01-01T00:00:00Z is the first instant the store keeps. It showed as 0001-01-02 (the
    /// clamp kept a day's margin).
    @Test func yearOneShowsItsOwnDate() {
        let first = Date(timeIntervalSince1970: -62_135_596_800)
        #expect(RelativeTime(now: now, timeZone: .utc).string(for: first) == "0001-01-01")
        #expect(RelativeTime(now: now, timeZone: .utc).string(for: first.addingTimeInterval(86_399)) == "0001-01-01")
        #expect(RelativeTime(now: now, timeZone: .utc).string(for: first.addingTimeInterval(86_400)) == "0001-01-02")
        let last = Date(timeIntervalSince1970: 253_402_300_799)
        #expect(RelativeTime(now: Date(timeIntervalSince1970: 253_402_300_799 + 86_400 * 30), timeZone: .utc).string(for: last) == "Dec 31")
        #expect(RelativeTime.TimeZoneRule.utc.civilDate(of: last) == (9999, 12, 31))
        #expect(RelativeTime.TimeZoneRule.utc.civilDate(of: Date(timeIntervalSince1970: 1e15)) == (9999, 12, 31))
        #expect(RelativeTime.TimeZoneRule.utc.civilDate(of: Date(timeIntervalSince1970: -1e15)) == (1, 1, 1))

        // Local time (0000-12-31 in New York): TimeZoneTests in the CLI tests, in a child process.
    }

    @Test func futureTimesFromClockSkewAreNow() {
        #expect(age(-5) == "now")
        #expect(age(-3 * 86_400) == "now")
        #expect(RelativeTime(now: now, timeZone: .utc).string(for: .distantFuture) == "now")
    }

    @Test func localTimeIsUsedByDefault() {
        let formatter = RelativeTime(now: now)
        let old = now.addingTimeInterval(-10 * 86_400)
        let local = RelativeTime.TimeZoneRule.local.civilDate(of: old)
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        #expect(formatter.string(for: old) == "\(months[local.month - 1]) \(local.day)")
        #expect(RelativeTime.string(for: now.addingTimeInterval(-90), now: now) == "1m")
    }
}
