#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The age of a message as a timeline shows it, at most 10 columns of ASCII:
///
/// | age                         | shows        |
/// |-----------------------------|--------------|
/// | under 60 s, or in the future (clock skew) | `now` |
/// | under 60 min                | `1m` … `59m` |
/// | under 24 h                  | `1h` … `23h` |
/// | under 7 days                | `1d` … `6d`  |
/// | older, same year as now     | `Nov 3`      |
/// | older, an earlier year      | `2025-11-03` |
///
/// Units count whole elapsed units (59 min 59 s is `59m`). Dates are local time (the `TZ`
/// environment variable, or the system's zone), with English month names whatever the locale,
/// since the rest of the timeline's chrome is English too.
public struct RelativeTime: Sendable {
    /// The moment ages are measured from.
    public let now: Date
    private let timeZone: TimeZoneRule

    /// A formatter measuring ages from `now`, in local time.
    public init(now: Date) {
        self.init(now: now, timeZone: .local)
    }

    init(now: Date, timeZone: TimeZoneRule) {
        self.now = now
        self.timeZone = timeZone
    }

    /// How long before `now` `date` was, e.g. `now`, `3m`, `2h`, `5d`, `Nov 3`, `2025-11-03`.
    public func string(for date: Date) -> String {
        let age = now.timeIntervalSince1970 - date.timeIntervalSince1970
        // NaN (a corrupt date) compares false with everything and lands on a date below.
        if age < 60 { return "now" }
        if age < 3_600 { return "\(Int(age / 60))m" }
        if age < 86_400 { return "\(Int(age / 3_600))h" }
        if age < 7 * 86_400 { return "\(Int(age / 86_400))d" }
        // Only old messages need the calendar, and the time zone: most timelines never do.
        let day = timeZone.civilDate(of: date)
        let month = Self.monthNames[day.month - 1]
        if day.year == timeZone.civilDate(of: now).year { return "\(month) \(day.day)" }
        return Self.padded(day.year, to: 4) + "-" + Self.padded(day.month, to: 2) + "-" + Self.padded(day.day, to: 2)
    }

    /// `string(for:)` with a formatter made for this one call.
    public static func string(for date: Date, now: Date) -> String {
        RelativeTime(now: now).string(for: date)
    }

    private static let monthNames = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    private static func padded(_ value: Int, to digits: Int) -> String {
        let text = String(value)
        return text.count >= digits ? text : String(repeating: "0", count: digits - text.count) + text
    }

    /// How a moment becomes a calendar date: the local zone, or UTC so that tests give the same
    /// dates on every machine.
    enum TimeZoneRule: Sendable {
        case local
        case utc

        /// The calendar date of `date`, always with a year from 1 to 9999 (four digits): times
        /// outside 0001-01-01T00:00:00Z…9999-12-31T23:59:59Z (which the store refuses) are
        /// clamped to those two, and a date that falls outside those years only in local time
        /// (0001-01-01 in UTC is 0000-12-31 west of Greenwich) is given in UTC.
        func civilDate(of date: Date) -> (year: Int, month: Int, day: Int) {
            let seconds = date.timeIntervalSince1970
            let clamped = seconds.isNaN ? 0 : min(max(seconds, -62_135_596_800), 253_402_300_799)
            let time = time_t(clamped.rounded(.down))
            if self == .local, let local = Self.fields(of: time, local: true), (1 ... 9999).contains(local.year) { return local }
            return Self.fields(of: time, local: false) ?? (1970, 1, 1)
        }

        private static func fields(of time: time_t, local: Bool) -> (year: Int, month: Int, day: Int)? {
            var time = time
            var fields = tm()
            let converted = local ? localtime_r(&time, &fields) : gmtime_r(&time, &fields)
            guard converted != nil else { return nil }
            return (Int(fields.tm_year) + 1900, Int(fields.tm_mon) + 1, Int(fields.tm_mday))
        }
    }
}
