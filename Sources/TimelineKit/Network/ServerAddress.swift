/// A server's address (a Mastodon-API server, a Bluesky PDS or entryway): its base URL, the
/// origin that requests may go to, and the authority that names where a Mastodon server's IDs
/// come from (see `MastodonNamespace`).
///
/// ```swift
/// let server = try ServerAddress("https://mastodon.social")
/// server.authority                                        // "mastodon.social"
/// server.url("/api/v1/timelines/home", query: [("limit", "40")])
/// ```
public struct ServerAddress: Sendable, Hashable {
    /// `scheme://host[:port][/path]`, lowercased scheme and host, no trailing slash.
    public let baseURL: String
    /// `scheme://host[:port]`: requests (and `Link` targets followed) never leave it, so the
    /// token is only ever sent to the server it belongs to.
    public let origin: String
    /// `host[:port]`, lowercased, the port only when it is not the scheme's default
    /// (`mastodon.social`, `127.0.0.1:8080`, `[::1]:3000`): the namespace of this server's IDs.
    public let authority: String

    /// Reads a server's address as `timeline login` stores it (`https://mastodon.social`), or as a
    /// person types it (`mastodon.social` means `https://`), with the login's rules
    /// (`normalized(_:)`): plain `http://` only to this machine.
    ///
    /// - Throws: `ServerError.invalidServer` for anything else, or one with a user name, query
    ///   or fragment.
    public init(_ text: String) throws(ServerError) {
        let normalized = try Self.normalized(text)
        let url: RequestURL
        do throws(HTTPTransportError) {
            url = try RequestURL(normalized)
        } catch {
            throw .invalidServer(text, reason: "\(error)")
        }
        let host = url.host.contains(":") ? "[\(url.host)]" : url.host
        let isDefaultPort = url.port == (url.scheme == "https" ? 443 : 80)
        authority = host + (url.port.flatMap { isDefaultPort ? nil : ":\($0)" } ?? "")
        origin = url.scheme + "://" + authority
        baseURL = origin + (url.pathAndQuery == "/" ? "" : url.pathAndQuery)
    }

    /// A server address as the accounts file keeps it (`https://mastodon.social`): `https://` is
    /// assumed when no scheme is given, trailing slashes are dropped; a query or fragment is
    /// refused. The one reading of an address a person types, for every network's login.
    ///
    /// - Throws: `ServerError.invalidServer`, naming `text` and why.
    static func normalized(_ text: String) throws(ServerError) -> String {
        let trimmed = String(text.trimmingWhitespace())
        let withScheme = trimmed.contains("://") ? trimmed : "https://" + trimmed
        let url: RequestURL
        do throws(HTTPTransportError) {
            url = try RequestURL(withScheme)
        } catch {
            throw .invalidServer(text, reason: "\(error)")
        }
        guard !url.pathAndQuery.contains("?"), !url.pathAndQuery.contains("#") else {
            throw .invalidServer(text, reason: "give the server's address only, without ? or #")
        }
        var path = Substring(url.pathAndQuery)
        while path.last == "/" { path = path.dropLast() }
        return url.origin + path
    }

    /// The absolute URL of `path` (starting with `/`) on this server, with `query` percent-encoded.
    public func url(_ path: String, query: [(name: String, value: String)] = []) -> String {
        var url = baseURL + path
        // Every byte but the unreserved ones percent-encoded: IDs, and `timeline[]`, arrive as sent.
        if !query.isEmpty { url += "?" + FormEncoding.encode(query) }
        return url
    }

    /// Whether `url` is on this server's origin (scheme, host and port), so that it may carry
    /// the token.
    public func isOnOrigin(_ url: String) -> Bool {
        guard url.utf8.count > origin.utf8.count else { return url.lowercased() == origin }
        let head = url.prefix(origin.count)
        let next = url[url.index(url.startIndex, offsetBy: origin.count)]
        return head.lowercased() == origin && (next == "/" || next == "?")
    }

    /// Whether this server's credentials may go to `url`, an address the server itself names
    /// (Mastodon's streaming host, a Bluesky PDS in a DID document): over https always, over
    /// plain http only when this server is itself plain http (a loopback test server). A server
    /// reached over https can never have a token sent in clear (issue 24).
    public func mayReceiveCredentials(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("https://") || (origin.hasPrefix("http://") && lowered.hasPrefix("http://"))
    }

    /// The value of the query parameter `name` in `url`, percent-decoded; `nil` when absent.
    static func queryValue(_ name: String, in url: String) -> String? {
        guard let question = url.firstIndex(of: "?") else { return nil }
        let query = url[url.index(after: question)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            if percentDecoded(parts[0]) == name { return parts.count > 1 ? percentDecoded(parts[1]) : "" }
        }
        return nil
    }

    private static func percentDecoded(_ text: Substring) -> String {
        var bytes: [UInt8] = []
        var utf8 = Array(text.utf8)[...]
        while let byte = utf8.popFirst() {
            if byte == UInt8(ascii: "%"), utf8.count >= 2,
               let value = UInt8(String(decoding: utf8.prefix(2), as: UTF8.self), radix: 16) {
                bytes.append(value)
                utf8 = utf8.dropFirst(2)
            } else if byte == UInt8(ascii: "+") {
                bytes.append(UInt8(ascii: " "))
            } else {
                bytes.append(byte)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
