/// Fetches a post's picture for `timeline browse`, through the cache: the URL as the server
/// gave it, checked (`https://`, or `http://` to a loopback address only, as every request of
/// the tool), sent with no token and no header of an account (media are public, and a URL's
/// host is not the account's server), bounded in size (``sizeLimit``), time (``timeLimit``)
/// and redirects (``redirectLimit``, each target checked again).
///
/// ```swift
/// let fetcher = PictureFetcher(transport: CurlTransport(), cache: cache)
/// let picture = try await fetcher.picture(at: "https://files.example/a.png")
/// ```
package struct PictureFetcher: Sendable {
    /// The largest picture fetched: Mastodon's own limit for an image (16 MiB).
    package static let sizeLimit = 16 << 20
    /// The longest one request may take.
    package static let timeLimit: Duration = .seconds(10)
    /// The most redirects followed.
    package static let redirectLimit = 3

    /// Why a picture could not be had, in one line for the picture screen.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// The address is not one the tool fetches.
        case refusedAddress(String)
        /// The request failed (offline, a time-out, too large): the transport's words.
        case transport(String)
        /// The server answered with this status.
        case status(Int)
        /// More redirects than ``PictureFetcher/redirectLimit``.
        case tooManyRedirects

        package var description: String {
            switch self {
            case let .refusedAddress(url): "not fetched: \(url) is not an https:// address"
            case let .transport(reason): "not fetched: \(reason)"
            case let .status(status): "not fetched: the server answered \(status)"
            case .tooManyRedirects: "not fetched: more than \(PictureFetcher.redirectLimit) redirects"
            }
        }
    }

    package let transport: any HTTPTransport
    package let cache: PictureCache?

    package init(transport: any HTTPTransport, cache: PictureCache?) {
        self.transport = transport
        self.cache = cache
    }

    /// The picture at `url`, from the cache when it is there (no request), else fetched and kept.
    /// A picture that cannot be kept (a full disk) is still returned.
    package func picture(at url: String) async throws(Failure) -> (bytes: [UInt8], fromCache: Bool) {
        if let kept = cache?.read(url) { return (kept, true) }
        var address = url
        for _ in 0...Self.redirectLimit {
            do throws(HTTPTransportError) {
                try HTTPRequest.checkURL(address)
            } catch {
                throw .refusedAddress(TerminalText.line(address))
            }
            // No headers: no token, no cookie, nothing of an account.
            let request = HTTPRequest(url: address, timeout: Self.timeLimit, maximumResponseBytes: Self.sizeLimit)
            let response: HTTPResponse
            do throws(HTTPTransportError) {
                response = try await transport.send(request)
            } catch {
                throw .transport(TerminalText.line("\(error)"))
            }
            switch response.status {
            case 200:
                try? cache?.store(response.body, for: url)
                return (response.body, false)
            case 301, 302, 303, 307, 308:
                guard let location = response.header("Location") else { throw .status(response.status) }
                address = URLReference.resolve(location, against: address)
            default:
                throw .status(response.status)
            }
        }
        throw .tooManyRedirects
    }
}
