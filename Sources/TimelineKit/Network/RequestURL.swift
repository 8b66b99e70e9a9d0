/// An absolute `https://` or `http://` URL, checked before any byte leaves the machine.
///
/// The check is strict on purpose, since the URL is handed to another program: ASCII only (a
/// caller percent-encodes), no spaces or control characters, no user name or password (a
/// secret never travels in a URL), and plain `http://` only to a loopback host: `localhost`,
/// `::1` or a dotted-decimal address in 127.0.0.0/8. Other spellings of loopback (`127.1`,
/// `0x7f.0.0.1`, `[::ffff:127.0.0.1]`) are refused rather than interpreted.
struct RequestURL: Sendable {
    /// `https` or `http`, lowercased.
    let scheme: String
    /// The host as written, lowercased, without brackets around an IPv6 address.
    let host: String
    /// The port when one is written.
    let port: Int?
    /// The path and query, starting with `/` (`/` when the URL has none).
    let pathAndQuery: String

    init(_ text: String) throws(HTTPTransportError) {
        guard text.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { throw .invalidURL(text) }
        let lowered = text.lowercased()
        let rest: Substring
        if lowered.hasPrefix("https://") {
            scheme = "https"
            rest = text.dropFirst(8)
        } else if lowered.hasPrefix("http://") {
            scheme = "http"
            rest = text.dropFirst(7)
        } else {
            throw .invalidURL(text)
        }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        let tail = rest[authorityEnd...]
        pathAndQuery = tail.isEmpty || tail.first != "/" ? "/" + tail : String(tail)
        guard !authority.isEmpty, !authority.contains("@") else { throw .invalidURL(text) }

        var hostPart: Substring
        var portPart: Substring?
        if authority.first == "[" {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidURL(text) }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if !after.isEmpty {
                guard after.first == ":" else { throw .invalidURL(text) }
                portPart = after.dropFirst()
            }
        } else if let colon = authority.firstIndex(of: ":") {
            hostPart = authority[..<colon]
            portPart = authority[authority.index(after: colon)...]
        } else {
            hostPart = authority
        }
        guard !hostPart.isEmpty else { throw .invalidURL(text) }
        host = hostPart.lowercased()
        if let portPart {
            guard !portPart.isEmpty, portPart.count <= 5, portPart.allSatisfy(\.isASCIIDigit),
                  let number = Int(portPart), (1...65535).contains(number)
            else { throw .invalidURL(text) }
            port = number
        } else {
            port = nil
        }
        if scheme == "http" && !Self.isLoopback(host) { throw .insecureURL(text) }
    }

    /// `scheme://host[:port]`, the way a server's base URL is written (brackets kept for IPv6).
    var origin: String { Self.origin(scheme: scheme, host: host, port: port) }

    /// `host[:port]` (brackets kept for IPv6): the server, as a sentence names it.
    var authority: String { String(origin.dropFirst(scheme.count + "://".count)) }

    /// `scheme://host[:port]`, brackets around an IPv6 host.
    static func origin(scheme: String, host: String, port: Int?) -> String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return "\(scheme)://\(shownHost)" + (port.map { ":\($0)" } ?? "")
    }

    /// Whether `host` names this machine's loopback interface.
    static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" { return true }
        let octets = host.split(separator: ".", omittingEmptySubsequences: false)
        guard octets.count == 4, octets[0] == "127" else { return false }
        return octets.allSatisfy { octet in
            !octet.isEmpty && octet.count <= 3 && octet.allSatisfy(\.isASCIIDigit)
                && (octet.count == 1 || octet.first != "0") && Int(octet)! <= 255
        }
    }
}

extension Character {
    fileprivate var isASCIIDigit: Bool { isASCII && isNumber }
}
