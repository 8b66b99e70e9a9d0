#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a response says about the server's rate limit: `X-RateLimit-Remaining` requests are
/// left until `X-RateLimit-Reset` (Mastodon's names), or `RateLimit-Remaining` until
/// `RateLimit-Reset` (Bluesky's, after the IETF draft).
///
/// Mastodon writes the reset as an ISO 8601 time (`2026-08-01T15:00:00.506914Z`); Bluesky and
/// other servers write seconds since 1970, or seconds from now. All three are read.
struct RateLimit: Sendable, Equatable {
    var remaining: Int
    var reset: Date?

    /// The limit a response announces, or `nil` when it announces none.
    init?(_ response: HTTPResponse, now: Date) {
        guard let text = response.header("X-RateLimit-Remaining") ?? response.header("RateLimit-Remaining"),
              let remaining = Int(text.trimmingWhitespace()) else { return nil }
        self.remaining = remaining
        reset = Self.resetHeader(of: response).flatMap { Self.time($0, now: now) }
    }

    /// When a refused (429) request may be sent again: the reset time, else `Retry-After`
    /// (seconds; its HTTP-date form is not read), else `nil`.
    static func retryDate(after response: HTTPResponse, now: Date) -> Date? {
        if let reset = resetHeader(of: response).flatMap({ time($0, now: now) }) { return reset }
        if let text = response.header("Retry-After"), let seconds = Int(text.trimmingWhitespace()), seconds >= 0 {
            return now.addingTimeInterval(Double(seconds))
        }
        return nil
    }

    private static func resetHeader(of response: HTTPResponse) -> String? {
        response.header("X-RateLimit-Reset") ?? response.header("RateLimit-Reset")
    }

    /// A reset written as RFC 3339, as seconds since 1970 (10 digits or more) or as seconds
    /// from now.
    static func time(_ text: String, now: Date) -> Date? {
        let value = String(text.trimmingWhitespace())
        if !value.isEmpty, value.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let seconds = Int64(value) else { return nil }
            return seconds >= 1_000_000_000 ? Date(timeIntervalSince1970: Double(seconds)) : now.addingTimeInterval(Double(seconds))
        }
        guard case let .success(milliseconds) = RFC3339Time.parse(value) else { return nil }
        return MillisecondTime.date(fromMilliseconds: milliseconds)
    }
}
