import TimelineKit

/// Why a feed's URL gave no feed to read: the server could not be reached, or answered with
/// something other than a feed's bytes. ``description`` names the URL and what to do.
public enum FeedFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request got no response (the server unreachable, too slow, a body over the limit).
    case transport(HTTPTransportError)
    /// The server answered with a status that is not a success, a 304 or a redirect.
    case status(Int, url: String)
    /// A 429 (too many requests) or 503 (unavailable): the server asks to be left alone, until
    /// its `Retry-After` (kept as received, seconds or an HTTP date; nil when it sent none).
    /// ``FeedSync`` sends nothing to the feed before then (``FeedRetryAfter``).
    case retryLater(status: Int, url: String, retryAfter: String?)
    /// More than ``FeedFetcher/maximumRedirects`` redirects in a row.
    case tooManyRedirects(url: String, limit: Int)
    /// A redirect from `https://` to `http://`, which would hand the fetch to anyone on the path.
    case insecureRedirect(from: String, to: String)
    /// A redirect whose `Location` is missing or not a URL.
    case invalidRedirect(from: String, location: String?)

    public var description: String {
        switch self {
        case let .transport(.insecureURL(url)):
            // The transport's own sentence speaks of tokens; a feed has none, but plain http
            // still lets anyone on the path change what it says.
            "\(url) uses plain http, which anyone on the network path can read and change; use the feed's https:// address (plain http is fetched only from 127.0.0.1, ::1 and localhost)."
        case let .transport(error):
            error.description
        case let .status(status, url):
            "\(url) answered HTTP \(status), not a feed. Check the URL, or try again later."
        case let .retryLater(status, url, retryAfter):
            "\(url) answered HTTP \(status) (\(status == 429 ? "too many requests" : "unavailable"))"
                + (retryAfter.map { ", asking to wait (Retry-After: \($0)); nothing is asked of it before then." } ?? "; try again later.")
        case let .tooManyRedirects(url, limit):
            "\(url) redirected more than \(limit) times in a row; nothing was fetched. Give the feed's final URL."
        case let .insecureRedirect(from, to):
            "\(from) redirected to \(to), from https to plain http, which is never followed. Ask the publisher to keep the feed on https."
        case let .invalidRedirect(from, location):
            "\(from) redirected to \(location.map { "\"\($0)\"" } ?? "nowhere (no Location header)"), which is not a URL; nothing was fetched."
        }
    }

}
