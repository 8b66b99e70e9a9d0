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

/// A time a post is to be published at, as a person writes it (issue 36, `post --at`): an
/// RFC 3339 time with its offset (`2026-12-01T09:30:00+01:00`, `…Z`), or a time of this
/// machine's time zone, `2026-12-01 09:30` (a `T` between them is taken too; seconds may follow).
public enum ScheduleTime {
    /// The time `text` names, or `nil` when it is neither form (or names no such day).
    public static func parse(_ text: String) -> Date? {
        if case let .success(milliseconds) = RFC3339Time.parse(text) {
            return MillisecondTime.date(fromMilliseconds: milliseconds)
        }
        return local(text)
    }

    /// How a time is written, for a refusal.
    public static let usage = "a time such as \"2026-12-01 09:30\" (this machine's time zone) or 2026-12-01T09:30:00+01:00 (RFC 3339)"

    /// `YYYY-MM-DD HH:MM[:SS]` in the local time zone (`mktime`, which knows its summer time).
    private static func local(_ text: String) -> Date? {
        let bytes = Array(text.utf8)
        guard bytes.count == 16 || bytes.count == 19 else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                guard bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"), bytes[10] == UInt8(ascii: " ") || bytes[10] == UInt8(ascii: "T"),
              bytes[13] == UInt8(ascii: ":"), bytes.count == 16 || bytes[16] == UInt8(ascii: ":"),
              let year = number(0 ..< 4), let month = number(5 ..< 7), let day = number(8 ..< 10),
              let hour = number(11 ..< 13), let minute = number(14 ..< 16) else { return nil }
        let second = bytes.count == 19 ? number(17 ..< 19) : 0
        guard let second, (1 ... 12).contains(month), day >= 1, day <= RFC3339Time.daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60 else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month - 1)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(hour)
        fields.tm_min = Int32(minute)
        fields.tm_sec = Int32(second)
        fields.tm_isdst = -1
        let seconds = mktime(&fields)
        guard seconds != -1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
