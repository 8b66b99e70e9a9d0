#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Conversion between `Date` and the whole milliseconds since 1970 that the database stores.
/// Rounding to the nearest millisecond makes the round trip exact for every time that came from
/// the database, whatever error the floating-point `Date` carries.
enum MillisecondTime {
    static func milliseconds(from date: Date) -> Int64 {
        let value = (date.timeIntervalSince1970 * 1000).rounded()
        // Out-of-range times (beyond ±292 million years) clamp instead of trapping.
        guard value.isFinite else { return value < 0 ? .min : .max }
        return Int64(exactly: value) ?? (value < 0 ? .min : .max)
    }

    static func date(fromMilliseconds milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }
}
