import TimelineKit

/// Why a feed's URL gave no feed to read: the server could not be reached, or answered with
/// something other than a feed's bytes. ``description`` names the URL and what to do.
public enum FeedFetchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The request got no response (the server unreachable, too slow, a body over the limit).
    case transport(HTTPTransportError)
    /// The server answered with a status that is not a success, a 304 or a redirect.
    case status(Int, url: String)
    /// More than ``FeedFetcher/maximumRedirects`` redirects in a row.
    case tooManyRedirects(url: String, limit: Int)
    /// A redirect from `https://` to `http://`, which would hand the fetch to anyone on the path.
    case insecureRedirect(from: String, to: String)
    /// A redirect whose `Location` is missing or not a URL.
    case invalidRedirect(from: String, location: String?)

    public var description: String {
        switch self {
        case let .transport(error):
            error.description
        case let .status(status, url):
            "\(url) answered HTTP \(status), not a feed. Check the URL, or try again later."
        case let .tooManyRedirects(url, limit):
            "\(url) redirected more than \(limit) times in a row; nothing was fetched. Give the feed's final URL."
        case let .insecureRedirect(from, to):
            "\(from) redirected to \(to), from https to plain http, which is never followed. Ask the publisher to keep the feed on https."
        case let .invalidRedirect(from, location):
            "\(from) redirected to \(location.map { "\"\($0)\"" } ?? "nowhere (no Location header)"), which is not a URL; nothing was fetched."
        }
    }

}
