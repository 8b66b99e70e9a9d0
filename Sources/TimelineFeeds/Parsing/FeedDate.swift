#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// The dates feeds write, read by hand (no `DateFormatter`: it needs full Foundation, and no
/// one format covers what real feeds send).
///
/// - RFC 822 / RFC 1123 (RSS `pubDate`, HTTP's `Last-Modified` and `Retry-After`):
///   `Sat, 07 Sep 2002 09:42:31 GMT`, with the variants real feeds write: no weekday, a
///   two-digit year, a full month name, no seconds, dashes (`07-Sep-2002`), a zone as a name
///   (`EST`, `PDT`, `UTC`), a military letter, `+0200`, `+02:00` or nothing (UTC).
/// - RFC 3339 / ISO 8601 (Atom, JSON Feed, `dc:date`): `2002-09-07T09:42:31Z`, with a fraction,
///   `±hh:mm`, `±hhmm` or `±hh`, a space or `t` for `T`, no zone (UTC), or a date alone (midnight UTC).
///
/// Anything else, or a field out of range (month 13, 25 o'clock), is `nil`: an item without a
/// date is kept and dated by its fetch, which is better than a wrong date.
public enum FeedDate {
    /// The instant `text` names, in either family of formats; `nil` when it is neither.
    public static func parse(_ text: String) -> Date? {
        let trimmed = text.trimmingXMLSpace()
        guard !trimmed.isEmpty, trimmed.utf8.count <= 100 else { return nil }
        let bytes = Array(trimmed.utf8)
        return iso8601(bytes) ?? rfc822(bytes)
    }

    // MARK: ISO 8601

    private static func iso8601(_ bytes: [UInt8]) -> Date? {
        var reader = Reader(bytes)
        guard let year = reader.number(exactly: 4), reader.take("-"),
              let month = reader.number(exactly: 2), reader.take("-"),
              let day = reader.number(exactly: 2) else { return nil }
        var hour = 0, minute = 0, second = 0, nanoseconds = 0, offset = 0
        if !reader.isAtEnd {
            guard reader.take("T") || reader.take("t") || reader.take(" ") else { return nil }
            guard let h = reader.number(exactly: 2), reader.take(":"), let m = reader.number(exactly: 2) else { return nil }
            hour = h
            minute = m
            if reader.take(":") {
                guard let s = reader.number(exactly: 2) else { return nil }
                second = s
                if reader.take(".") || reader.take(",") { nanoseconds = reader.fraction() }
            }
            if !reader.isAtEnd {
                guard let zone = reader.numericZone() ?? (reader.take("Z") || reader.take("z") ? 0 : nil) else { return nil }
                offset = zone
            }
        }
        guard reader.isAtEnd else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                    nanoseconds: nanoseconds, offsetSeconds: offset)
    }

    // MARK: RFC 822

    private static let months = ["jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec"]
    private static let weekdays = ["mon", "tue", "wed", "thu", "fri", "sat", "sun"]
    /// RFC 822's zone names (section 5.1), and `UTC`, which feeds write as often.
    private static let zones: [String: Int] = [
        "ut": 0, "utc": 0, "gmt": 0, "z": 0,
        "est": -5, "edt": -4, "cst": -6, "cdt": -5, "mst": -7, "mdt": -6, "pst": -8, "pdt": -7,
    ]

    private static func rfc822(_ bytes: [UInt8]) -> Date? {
        var day: Int?, month: Int?, year: Int?
        var hour = 0, minute = 0, second = 0, nanoseconds = 0, offset = 0
        var sawTime = false
        // Tokens are split at white space, commas and dashes between a number and a word
        // (`07-Sep-2002`); a sign before digits (`-0700`) starts a zone and stays.
        for token in tokens(bytes) {
            let text = String(decoding: token, as: UTF8.self).lowercased()
            if token.contains(UInt8(ascii: ":")), !sawTime, token.first.map(isDigit) == true {
                var reader = Reader(token)
                guard let h = reader.number(upTo: 2), reader.take(":"), let m = reader.number(exactly: 2) else { return nil }
                hour = h
                minute = m
                if reader.take(":") {
                    guard let s = reader.number(exactly: 2) else { return nil }
                    second = s
                    if reader.take(".") { nanoseconds = reader.fraction() }
                }
                if !reader.isAtEnd {
                    // A zone written against the time: `09:42:31Z`, `09:42:31+0200`.
                    guard let zone = reader.numericZone() ?? (reader.take("Z") ? 0 : nil), reader.isAtEnd else { return nil }
                    offset = zone
                }
                sawTime = true
            } else if token.first == UInt8(ascii: "+") || token.first == UInt8(ascii: "-") {
                var reader = Reader(token)
                guard let zone = reader.numericZone(), reader.isAtEnd else { return nil }
                offset = zone
            } else if token.allSatisfy(isDigit) {
                guard let value = Int(text) else { return nil }
                if day == nil, token.count <= 2 {
                    day = value
                } else if year == nil {
                    // Two-digit years: RFC 2822 section 4.3 (00-49 are 2000-2049, 50-99 are 1950-1999).
                    year = token.count == 2 ? (value < 50 ? 2000 + value : 1900 + value) : value
                } else {
                    return nil
                }
            } else if let zone = zones[text] {
                offset = zone * 3600
            } else if text.count >= 3, let index = months.firstIndex(of: String(text.prefix(3))), month == nil {
                month = index + 1
            } else if text.count >= 3, weekdays.contains(String(text.prefix(3))) {
                continue
            } else if token.count == 1, let letter = token.first, isLetter(letter) {
                // A military zone letter: RFC 1123 section 5.2.14 says their signs were written
                // backwards in RFC 822, so they carry no information; read as UTC.
                continue
            } else {
                return nil
            }
        }
        guard let day, let month, let year else { return nil }
        return date(year: year, month: month, day: day, hour: hour, minute: minute, second: second,
                    nanoseconds: nanoseconds, offsetSeconds: offset)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z") }

    private static func tokens(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start: Int?
        for index in bytes.indices {
            let byte = bytes[index]
            let separates: Bool
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: ","), UInt8(ascii: "\n"), UInt8(ascii: "\r"):
                separates = true
            case UInt8(ascii: "-"):
                // Inside `07-Sep-2002`, not at the start of `-0700`.
                separates = index > 0 && (isDigit(bytes[index - 1]) || isLetter(bytes[index - 1]))
                    && index + 1 < bytes.count && (isLetter(bytes[index + 1]) || isLetter(bytes[index - 1]))
            default:
                separates = false
            }
            if separates {
                if let begun = start { result.append(bytes[begun ..< index]) }
                start = nil
            } else if start == nil {
                start = index
            }
        }
        if let begun = start { result.append(bytes[begun...]) }
        return result
    }

    // MARK: Both

    private static func date(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int,
                             nanoseconds: Int, offsetSeconds: Int) -> Date? {
        guard (1 ... 9999).contains(year), (1 ... 12).contains(month), (1 ... RFC3339Time.daysIn(month: month, year: year)).contains(day),
              (0 ... 23).contains(hour), (0 ... 59).contains(minute), (0 ... 60).contains(second),
              abs(offsetSeconds) <= 18 * 3600 else { return nil }
        // A leap second is the last instant of its minute, as TimelineKit's RFC 3339 reader keeps it.
        let seconds = RFC3339Time.daysSinceEpoch(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60 + min(second, 59) - offsetSeconds
        return Date(timeIntervalSince1970: Double(seconds) + Double(nanoseconds) / 1e9)
    }

    /// A cursor over ASCII bytes.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        init(_ bytes: some Collection<UInt8>) { self.bytes = Array(bytes) }

        var isAtEnd: Bool { index >= bytes.count }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
            index += 1
            return true
        }

        mutating func number(exactly digits: Int) -> Int? {
            let start = index
            guard let value = number(upTo: digits), index - start == digits else { return nil }
            return value
        }

        mutating func number(upTo digits: Int) -> Int? {
            var value = 0
            let start = index
            while index < bytes.count, index - start < digits, FeedDate.isDigit(bytes[index]) {
                value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                index += 1
            }
            return index > start ? value : nil
        }

        /// The digits of a fraction of a second, as nanoseconds (digits past nine ignored).
        mutating func fraction() -> Int {
            var value = 0, digits = 0
            while index < bytes.count, FeedDate.isDigit(bytes[index]) {
                if digits < 9 {
                    value = value * 10 + Int(bytes[index] - UInt8(ascii: "0"))
                    digits += 1
                }
                index += 1
            }
            for _ in digits ..< 9 { value *= 10 }
            return value
        }

        /// `±hh:mm`, `±hhmm` or `±hh`, in seconds east of UTC.
        mutating func numericZone() -> Int? {
            let start = index
            guard index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") else { return nil }
            let sign = bytes[index] == UInt8(ascii: "-") ? -1 : 1
            index += 1
            guard let hours = number(exactly: 2) else { index = start; return nil }
            var minutes = 0
            if take(":") {
                guard let m = number(exactly: 2) else { index = start; return nil }
                minutes = m
            } else if let m = number(exactly: 2) {
                minutes = m
            }
            guard hours <= 18, minutes <= 59 else { index = start; return nil }
            return sign * (hours * 3600 + minutes * 60)
        }
    }
}
