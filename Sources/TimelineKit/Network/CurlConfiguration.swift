/// The options one request gives the `curl` program, written as a curl config file that curl
/// reads from its standard input (`curl -q --config -`). Nothing of the request is in curl's
/// arguments, so the `Authorization` header never shows in a process list (`ps`, `/proc`).
///
/// Descriptors the child gets: 0 this configuration, 1 the body, 2 curl's messages, 3 the
/// request body (`--data-binary @/dev/fd/3`, read whole before sending), 4 the response's
/// header blocks (`--dump-header /dev/fd/4`): kept apart from the body, so the body is exact
/// byte for byte even when the server sends trailers, which `--include` would mix into it.
struct CurlConfiguration: Sendable {
    /// The child's descriptor that receives the request body.
    static let bodyDescriptor: Int32 = 3
    /// The child's descriptor that receives the response's header blocks.
    static let headerDescriptor: Int32 = 4
    /// `-q` must come first to keep curl from reading `~/.curlrc`, which could turn on
    /// `--insecure` or `--location` behind our back.
    static let arguments = ["curl", "-q", "--config", "-"]

    /// The configuration text.
    let text: [UInt8]
    /// The checked URL.
    let url: RequestURL

    /// Builds the configuration for `request`; `streaming` for a long-lived response that is
    /// handed over as it arrives.
    init(_ request: HTTPRequest, streaming: Bool, userAgent: String) throws(HTTPTransportError) {
        url = try RequestURL(request.url)
        var lines = [
            "silent",
            "show-error",
            "globoff",                           // `timeline[]=home` is a query, not a glob
            "suppress-connect-headers",          // a proxy's CONNECT answer is not the response
            "proto = \"=https,http\"",           // never file://, ftp://, …
            "dump-header = \"/dev/fd/\(Self.headerDescriptor)\"",
            "user-agent = \(Self.quoted(userAgent))",
            "url = \(Self.quoted(request.url))",
            "request = \(Self.quoted(request.method.rawValue))",
            // curl would wait for `100 Continue` before sending a large body; servers answer
            // the request either way.
            "header = \"Expect:\"",
        ]
        // Plain http goes to loopback only, and straight there: an `http_proxy` in the
        // environment would otherwise receive the token in clear text.
        if url.scheme == "http" { lines.append("noproxy = \"*\"") }
        let seconds = Self.seconds(request.timeout)
        // curl's own check, so that it holds even when this process is gone: below the rate
        // for the whole window (the wait for the answer's first byte included), curl ends.
        // curl's time limits are whole seconds here.
        let window = max(1, request.slowTransferWindow.components.seconds)
        lines.append("speed-limit = \(max(1, request.minimumBytesPerSecond))")
        lines.append("speed-time = \(window)")
        if streaming {
            lines.append("no-buffer")
            lines.append("connect-timeout = \(seconds)")
        } else {
            lines.append("compressed")
            lines.append("max-time = \(seconds)")
            lines.append("max-filesize = \(max(1, request.maximumResponseBytes))")
        }
        for header in request.headers {
            guard Self.isToken(header.name),
                  !header.value.utf8.contains(where: { $0 == 0x0D || $0 == 0x0A || $0 == 0 })
            else { throw .invalidHeader(name: String(header.name.unicodeScalars.filter { $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })) }
            // `Name:` alone would remove a header curl adds; `Name;` sends it empty.
            let line = header.value.isEmpty ? "\(header.name);" : "\(header.name): \(header.value)"
            lines.append("header = \(Self.quoted(line))")
        }
        if request.body != nil || request.method == .post || request.method == .put {
            lines.append("data-binary = \"@/dev/fd/\(Self.bodyDescriptor)\"")
        }
        text = Array((lines.joined(separator: "\n") + "\n").utf8)
    }

    /// A value in curl's config syntax: double quotes, with `\` and `"` escaped (header
    /// values are checked free of line breaks before they get here).
    static func quoted(_ value: String) -> String {
        var result = "\""
        for character in value.unicodeScalars {
            switch character {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\t": result += "\\t"
            default: result.unicodeScalars.append(character)
            }
        }
        return result + "\""
    }

    /// RFC 9110's `token`, what a field name must be.
    static func isToken(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                 UInt8(ascii: "0")...UInt8(ascii: "9"):
                true
            default:
                "!#$%&'*+-.^_`|~".utf8.contains(byte)
            }
        }
    }

    /// Seconds with millisecond precision, as curl's timeouts take them.
    static func seconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let milliseconds = max(1, seconds * 1000 + attoseconds / 1_000_000_000_000_000)
        let fraction = String(milliseconds % 1000)
        return "\(milliseconds / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
    }
}
