/// A whole HTTP response: the final status (after no redirects: a transport does not follow
/// them, so a token is never sent to a host the user did not name), its headers and its body.
public struct HTTPResponse: Sendable, Hashable {
    /// The status code, e.g. 200, 206, 429.
    public var status: Int
    /// Header fields in the order received.
    public var headers: [HTTPHeader]
    /// The body, at most the request's `maximumResponseBytes`.
    public var body: [UInt8]

    public init(status: Int, headers: [HTTPHeader] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// The first value of the header `name` (case-insensitive), if present.
    public func header(_ name: String) -> String? {
        headers.first { $0.matches(name) }?.value
    }

    /// Every value of the header `name` (case-insensitive), in order: `Link` may come in
    /// several fields.
    public func headers(named name: String) -> [String] {
        headers.filter { $0.matches(name) }.map(\.value)
    }

    /// Whether the body is a web page rather than an API's answer: `Content-Type: text/html`,
    /// or no type and a body that opens with `<`. Servers answer an API path they lack with
    /// their HTML error page or with their web app's page, sometimes with status 200.
    public var isHTMLPage: Bool {
        if let type = header("Content-Type") {
            return type.trimmingWhitespace().lowercased().hasPrefix("text/html")
        }
        return body.first { !(0x09 ... 0x0D).contains($0) && $0 != 0x20 } == UInt8(ascii: "<")
    }
}
