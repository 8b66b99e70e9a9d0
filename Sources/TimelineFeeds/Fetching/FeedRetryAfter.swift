#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// When a feed that answered 429 or 503 may be asked again: its `Retry-After` (RFC 9110 §10.2.3),
/// whole seconds or an HTTP date, read as the time it names.
///
/// The wait is bounded by ``longestWait``: a header that names next year (a broken clock, a
/// hostile server) must not silence a feed for good, and a day is longer than any real outage
/// asks for. A header that says nothing readable gives no wait: the feed is due as usual.
///
/// ```swift
/// FeedRetryAfter.date("120", now: now)                            // now + 2 minutes
/// FeedRetryAfter.date("Wed, 21 Oct 2026 07:28:00 GMT", now: now)  // that time, at most a day away
/// ```
public enum FeedRetryAfter {
    /// The longest a `Retry-After` keeps a feed from being asked (a day).
    public static let longestWait: Duration = .seconds(86_400)

    /// The time `text` names, from `now`, within ``longestWait``; nil when it is neither whole
    /// seconds nor a date, or names a time already past.
    public static func date(_ text: String, now: Date) -> Date? {
        let trimmed = text.trimmingXMLSpace()
        let longest = Double(longestWait.components.seconds)
        let until: Date
        if !trimmed.isEmpty, trimmed.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            // Digits past a day's worth mean "a day": no need to read them as a number that may overflow.
            let seconds = trimmed.utf8.count > 6 ? longest : min(Double(trimmed) ?? longest, longest)
            until = now.addingTimeInterval(seconds)
        } else if let date = FeedDate.parse(trimmed) {
            until = min(date, now.addingTimeInterval(longest))
        } else {
            return nil
        }
        return until > now ? until : nil
    }
}
