/// RFC 3339 times as JSON Lines files write them, parsed from and formatted into UTF-8 bytes by
/// hand: no `DateFormatter` (it needs full Foundation and is slow), no allocation.
///
/// Parsing accepts `YYYY-MM-DDThh:mm:ss`, an optional fraction of any length (`.5`, `.123456`) and a
/// zone, `Z` or `±hh:mm` (`-00:00` too). `t` and `z` may be lowercase. A space instead of `T` and a
/// missing zone are refused: the first is not in RFC 3339's grammar, the second names no instant.
/// The fraction is truncated to whole milliseconds (never rounded, so a time never moves into the
/// next second or day). A leap second, `23:59:60` UTC, is stored as `23:59:59.999`, which keeps it
/// in its day and after every other time of that day.
///
/// Formatting writes UTC, `2026-11-20T10:00:00Z`, with `.mmm` only when the milliseconds are not
/// zero, so formatting and parsing again gives the same milliseconds.
///
/// Only the instants formatting can write are accepted: years 0001 to 9999 **in UTC**
/// (`representable`). `9999-12-31T23:59:59-01:00` is a valid RFC 3339 time, but it falls in
/// the year 10000 in UTC, which RFC 3339 cannot write, so an export of it could not be imported
/// again; it is refused with the UTC time it would have been.
///
/// Public for its calendar arithmetic (``daysSinceEpoch(year:month:day:)``,
/// ``daysIn(month:year:)``), which other date readers (TimelineFeeds' `FeedDate`) share
/// instead of copying; the parsing and formatting stay the import's own.
public enum RFC3339Time {
    /// Why bytes are not a time: the rest of the sentence "VALUE …".
    struct Invalid: Error {
        let reason: String
    }

    /// The time in whole milliseconds since 1970-01-01T00:00:00Z.
    static func milliseconds(parsing text: UnsafeBufferPointer<UInt8>) throws(Invalid) -> Int64 {
        let count = text.count
        // Reads a digit at `index`, or returns nil past the end or at a non-digit.
        func digit(_ index: Int) -> Int? {
            guard index < count else { return nil }
            // In bounds: index < count was checked just above.
            let value = Int(text[index]) &- 48
            return (0 ... 9).contains(value) ? value : nil
        }
        func number(_ index: Int, digits: Int) -> Int? {
            var value = 0
            for offset in 0 ..< digits {
                guard let next = digit(index + offset) else { return nil }
                value = value * 10 + next
            }
            return value
        }
        func byte(_ index: Int) -> UInt8 {
            // In bounds: checked before the read; 0 stands for "past the end".
            index < count ? text[index] : 0
        }
        let shape = Invalid(reason: "is not an RFC 3339 time like 2026-11-20T10:00:00Z or 2026-11-20T19:00:00.5+09:00")

        guard let year = number(0, digits: 4), byte(4) == UInt8(ascii: "-"),
              let month = number(5, digits: 2), byte(7) == UInt8(ascii: "-"),
              let day = number(8, digits: 2)
        else { throw shape }
        guard count > 10 else {
            throw Invalid(reason: "is a date without a time; write a time and a zone, e.g. \(Self.digits(year, 4))-\(Self.digits(month, 2))-\(Self.digits(day, 2))T00:00:00Z")
        }
        guard byte(10) == UInt8(ascii: "T") || byte(10) == UInt8(ascii: "t") else {
            if byte(10) == UInt8(ascii: " ") { throw Invalid(reason: "has a space between date and time; RFC 3339 needs a T there") }
            throw shape
        }
        guard let hour = number(11, digits: 2), byte(13) == UInt8(ascii: ":"),
              let minute = number(14, digits: 2), byte(16) == UInt8(ascii: ":"),
              let second = number(17, digits: 2)
        else { throw shape }

        var index = 19
        var milliseconds = 0
        if byte(index) == UInt8(ascii: ".") {
            index += 1
            let fractionStart = index
            var scale = 100
            while let next = digit(index) {
                milliseconds += next * scale
                scale /= 10
                index += 1
            }
            guard index > fractionStart else { throw Invalid(reason: "has a decimal point without digits after it") }
        }

        var offsetMinutes = 0
        switch byte(index) {
        case UInt8(ascii: "Z"), UInt8(ascii: "z"):
            index += 1
        case UInt8(ascii: "+"), UInt8(ascii: "-"):
            let sign = byte(index) == UInt8(ascii: "-") ? -1 : 1
            guard let offsetHour = number(index + 1, digits: 2), byte(index + 3) == UInt8(ascii: ":"),
                  let offsetMinute = number(index + 4, digits: 2)
            else { throw Invalid(reason: "has a malformed offset; write it as +hh:mm or -hh:mm, e.g. +09:00") }
            guard offsetHour <= 23, offsetMinute <= 59 else {
                throw Invalid(reason: "has an offset beyond ±23:59")
            }
            offsetMinutes = sign * (offsetHour * 60 + offsetMinute)
            index += 6
        case 0 where index >= count:
            throw Invalid(reason: "has no time zone; add Z for UTC or an offset such as +01:00")
        default:
            throw shape
        }
        guard index == count else { throw shape }

        guard (1 ... 12).contains(month) else { throw Invalid(reason: "is not a valid date: month \(Self.digits(month, 2)) is not between 01 and 12") }
        let monthLength = daysIn(month: month, year: year)
        guard (1 ... monthLength).contains(day) else {
            if day == 0 { throw Invalid(reason: "is not a valid date: there is no day 00") }
            throw Invalid(reason: "is not a valid date: \(monthNames[month - 1]) \(Self.digits(year, 4)) has \(monthLength) days")
        }
        guard hour <= 23 else { throw Invalid(reason: "is not a valid time: hour \(Self.digits(hour, 2)) is not between 00 and 23") }
        guard minute <= 59 else { throw Invalid(reason: "is not a valid time: minute \(Self.digits(minute, 2)) is not between 00 and 59") }
        guard second <= 60 else { throw Invalid(reason: "is not a valid time: second \(Self.digits(second, 2)) is not between 00 and 60") }

        let days = Int64(daysSinceEpoch(year: year, month: month, day: day))
        let localSeconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + min(second, 59))
        let utcSeconds = localSeconds - Int64(offsetMinutes * 60)
        if second == 60 {
            // RFC 3339 allows 60 only for a leap second, which is always the last second of a UTC day.
            guard utcSeconds.modulo(86_400) == 86_399 else {
                throw Invalid(reason: "is not a valid time: second 60 (a leap second) can only be 23:59:60 UTC")
            }
            return try representable(utcSeconds * 1000 + 999)
        }
        return try representable(utcSeconds * 1000 + Int64(milliseconds))
    }

    /// The instants a time can be stored at: 0001-01-01T00:00:00.000Z through
    /// 9999-12-31T23:59:59.999Z, the years `append` writes with four digits and parsing reads back.
    static let representableMilliseconds: ClosedRange<Int64> = -62_135_596_800_000 ... 253_402_300_799_999

    /// `milliseconds(parsing:)` as a result, for readers that report the failure themselves.
    static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> Result<Int64, Invalid> {
        do throws(Invalid) {
            return .success(try milliseconds(parsing: bytes))
        } catch {
            return .failure(error)
        }
    }

    static func parse(_ text: String) -> Result<Int64, Invalid> {
        var text = text
        return text.withUTF8(parse)
    }

    /// `milliseconds`, or why it cannot be stored: the rest of the sentence "VALUE …".
    static func representable(_ milliseconds: Int64) throws(Invalid) -> Int64 {
        guard representableMilliseconds.contains(milliseconds) else {
            var utc: [UInt8] = []
            append(milliseconds: milliseconds, to: &utc)
            throw Invalid(reason: "is \(String(decoding: utc, as: UTF8.self)) in UTC, outside the years 0001 to 9999 "
                + "that times are kept in (and that an export can write)")
        }
        return milliseconds
    }

    /// Appends `milliseconds` as `YYYY-MM-DDThh:mm:ss[.mmm]Z`. Years before 0 or after 9999 cannot
    /// be written in RFC 3339; they are written with more digits or a sign, which parsing refuses.
    static func append(milliseconds: Int64, to bytes: inout [UInt8]) {
        // The remainder, not `milliseconds - days * 86_400_000`: a time read from a database another
        // program wrote can be `Int64.min`, whose whole days times the length of a day pass the bound.
        let days = milliseconds.floorDivided(by: 86_400_000)
        let millisecondOfDay = Int(milliseconds.modulo(86_400_000))
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        appendDigits(year, 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        let secondOfDay = millisecondOfDay / 1000
        appendDigits(secondOfDay / 3600, 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, 2, to: &bytes)
        let fraction = millisecondOfDay % 1000
        if fraction != 0 {
            bytes.append(UInt8(ascii: "."))
            appendDigits(fraction, 3, to: &bytes)
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    private static let monthNames = [
        "January", "February", "March", "April", "May", "June",
        "July", "August", "September", "October", "November", "December",
    ]

    /// Whether `year` is a leap year of the proleptic Gregorian calendar.
    public static func isLeap(_ year: Int) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    /// The number of days of `month` (1 to 12) in `year` of the proleptic Gregorian calendar:
    /// what a reader of dates checks a day against, e.g. `daysIn(month: 2, year: 2028)` is 29.
    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Days from 1970-01-01 to a date of the proleptic Gregorian calendar (Howard Hinnant's
    /// `days_from_civil`, http://howardhinnant.github.io/date_algorithms.html, exact for every
    /// year), negative before 1970: the one calendar computation every date reader of the
    /// project shares (TimelineFeeds' `FeedDate` too). The date is not checked: check `day`
    /// against ``daysIn(month:year:)`` first.
    ///
    /// ```swift
    /// let seconds = RFC3339Time.daysSinceEpoch(year: 2026, month: 11, day: 29) * 86_400  // midnight UTC
    /// ```
    public static func daysSinceEpoch(year: Int, month: Int, day: Int) -> Int {
        let shiftedYear = month <= 2 ? year - 1 : year
        let era = (shiftedYear >= 0 ? shiftedYear : shiftedYear - 399) / 400
        let yearOfEra = shiftedYear - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysSinceEpoch` (Hinnant's `civil_from_days`).
    static func civilDate(daysSinceEpoch days: Int64) -> (year: Int, month: Int, day: Int) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * shiftedMonth + 2) / 5 + 1
        let month = shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func appendDigits(_ value: Int, _ width: Int, to bytes: inout [UInt8]) {
        if value < 0 {
            bytes.append(UInt8(ascii: "-"))
            appendDigits(-value, width, to: &bytes)
            return
        }
        var divisor = 1
        for _ in 1 ..< width { divisor *= 10 }
        while divisor * 10 <= value { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(truncatingIfNeeded: 48 + value / divisor % 10))
            divisor /= 10
        }
    }

    private static func digits(_ value: Int, _ width: Int) -> String {
        var bytes: [UInt8] = []
        appendDigits(value, width, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension Int64 {
    /// Division rounding toward negative infinity, so times before 1970 fall in the right day.
    fileprivate func floorDivided(by divisor: Int64) -> Int64 {
        let quotient = self / divisor
        return (self % divisor != 0 && (self < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }

    /// The remainder with the divisor's sign (always in `0 ..< divisor` for a positive divisor).
    fileprivate func modulo(_ divisor: Int64) -> Int64 {
        let remainder = self % divisor
        return remainder < 0 ? remainder + divisor : remainder
    }
}
