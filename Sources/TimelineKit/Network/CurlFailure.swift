/// What a non-zero exit status of `curl` means, as a transport error. The numbers are curl's
/// documented exit codes (`man curl`, "EXIT CODES"); `message` is curl's own line from standard
/// error (`curl: (7) Failed to connect to … port 443 …`), which names the host and the system's
/// reason, never a header. Codes not listed keep curl's message and count as "cannot connect",
/// the answer that makes a caller try again later.
enum CurlFailure {
    static func error(exitStatus: Int32, message: String, request: HTTPRequest) -> HTTPTransportError {
        let url = request.url
        let detail = message.isEmpty ? "curl exit status \(exitStatus)" : message
        switch exitStatus {
        case 1, 3:
            return .invalidURL(url)
        case 5:
            return .cannotConnect(url: url, reason: "the proxy's name could not be resolved (\(detail))")
        case 6:
            return .cannotConnect(url: url, reason: "the host name could not be resolved (\(detail))")
        case 7:
            return .cannotConnect(url: url, reason: "the connection was refused or the host is unreachable (\(detail))")
        case 28:
            // One exit status for both of curl's limits; its message tells them apart
            // ("Operation too slow. Less than 256 bytes/sec transferred the last 10 seconds").
            if message.contains("too slow") {
                return .tooSlow(url: url, bytesPerSecond: max(1, request.minimumBytesPerSecond),
                                window: .seconds(max(1, request.slowTransferWindow.components.seconds)))
            }
            return .timedOut(url: url, after: request.timeout)
        case 63:
            return .responseTooLarge(url: url, limit: request.maximumResponseBytes)
        case 35, 53, 54, 58, 59, 64, 66, 80, 83, 90, 91, 98:
            return .cannotConnect(url: url, reason: "the TLS connection could not be set up (\(detail))" + plainHTTPHint(for: url))
        case 60:
            return .cannotConnect(url: url, reason: "the server's TLS certificate could not be verified, so the connection was not used (\(detail))")
        case 77:
            return .cannotConnect(url: url, reason: "the system's TLS certificate store could not be read (\(detail))")
        case 8, 16, 92:
            return .malformedResponse(url: url, reason: "the answer is not valid HTTP (\(detail))")
        case 18:
            return .malformedResponse(url: url, reason: "the connection closed before the whole body arrived (\(detail))")
        case 52:
            return .malformedResponse(url: url, reason: "the server closed the connection without answering")
        case 55, 56:
            return .cannotConnect(url: url, reason: "the connection broke (\(detail))")
        case 61:
            return .malformedResponse(url: url, reason: "the body's content encoding is unknown (\(detail))")
        case 2, 4:
            return .unavailable(reason: "the installed curl cannot make this request (\(detail)); install a current curl")
        default:
            return .cannotConnect(url: url, reason: detail)
        }
    }

    /// A server on this machine that does not speak TLS (a development server, a test server)
    /// fails the handshake with "wrong version number"; the fix is its http:// address, which
    /// timeline accepts for loopback hosts only, so only they get the hint.
    private static func plainHTTPHint(for url: String) -> String {
        guard let parsed = try? RequestURL(url), parsed.scheme == "https", RequestURL.isLoopback(parsed.host) else { return "" }
        let plain = RequestURL.origin(scheme: "http", host: parsed.host, port: parsed.port)
        return "; a server on this machine may speak plain http: try \(plain)"
    }

    /// curl's last message line, kept to printable ASCII and 300 characters: it may quote what
    /// a server sent, and it ends up on a terminal.
    static func message(fromStandardError bytes: [UInt8]) -> String {
        let lines = bytes.split(separator: 0x0A).map { line in
            String(decoding: line.filter { $0 >= 0x20 && $0 < 0x7F }, as: UTF8.self)
        }
        return String((lines.last { !$0.isEmpty } ?? "").prefix(300))
    }
}
