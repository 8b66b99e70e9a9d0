/// Twitter's v1.1 time format, `Wed Oct 10 20:19:24 +0000 2018`, parsed by hand (no
/// `DateFormatter`: it needs full Foundation, and its result depends on the locale).
///
/// The weekday is checked to be three letters but not compared with the date: the date and time
/// say which instant it is. The day may have one or two digits; the offset is `±hhmm`.
enum TwitterTime {
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// The time in whole milliseconds since 1970, or why `text` is not such a time.
    static func milliseconds(parsing text: String) -> Result<Int64, RFC3339Time.Invalid> {
        let shape = RFC3339Time.Invalid(reason: "is not a Twitter time like \"Wed Oct 10 20:19:24 +0000 2018\"")
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 6, parts[0].count == 3, parts[0].allSatisfy(\.isLetter),
              let monthIndex = months.firstIndex(of: String(parts[1])),
              parts[2].count <= 2, let day = digits(parts[2]),
              parts[4].count == 5, let sign = parts[4].first, sign == "+" || sign == "-",
              let offset = digits(parts[4].dropFirst()),
              parts[5].count == 4, let year = digits(parts[5])
        else { return .failure(shape) }
        let clock = parts[3].split(separator: ":", omittingEmptySubsequences: false)
        guard clock.count == 3, clock.allSatisfy({ $0.count == 2 }),
              let hour = digits(clock[0]), let minute = digits(clock[1]), let second = digits(clock[2])
        else { return .failure(shape) }
        let month = monthIndex + 1
        guard (1 ... RFC3339Time.daysIn(month: month, year: year)).contains(day) else {
            return .failure(RFC3339Time.Invalid(reason: "is not a valid date: \(parts[1]) \(year) has no day \(day)"))
        }
        guard hour <= 23, minute <= 59, second <= 59, offset / 100 <= 23, offset % 100 <= 59 else {
            return .failure(RFC3339Time.Invalid(reason: "is not a valid time of day"))
        }
        let offsetSeconds = (sign == "-" ? -1 : 1) * (offset / 100 * 3600 + offset % 100 * 60)
        let days = Int64(RFC3339Time.daysSinceEpoch(year: year, month: month, day: day))
        let seconds = days * 86_400 + Int64(hour * 3600 + minute * 60 + second) - Int64(offsetSeconds)
        do throws(RFC3339Time.Invalid) {
            return .success(try RFC3339Time.representable(seconds * 1000))
        } catch {
            return .failure(error)
        }
    }

    /// The value of a run of ASCII digits; `nil` for anything else, signs included (`Int("+1")`
    /// and `Int("-1")` would take them, and an hour of -1 would pass the range checks).
    private static func digits(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ $0 &- UInt8(ascii: "0") < 10 }) else { return nil }
        return Int(text)
    }
}
