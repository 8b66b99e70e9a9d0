/// An OAuth access token: the secret that lets `timeline` act as an account.
///
/// It prints as `AccessToken(…)`, never as its value, so a token that ends up in string
/// interpolation, a log line, an error or a debugger's description does not leak; the value is
/// read only where it is sent (an `Authorization` header, which transports keep out of process
/// arguments) or stored (the accounts file, 0600).
public struct AccessToken: Sendable, Equatable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The token itself. Send it, store it; do not print it.
    public let value: String

    /// A token as a server issued it. Returns `nil` when it cannot be one: empty, or holding
    /// anything but printable ASCII without spaces (RFC 6750's `b64token` and every token
    /// seen in the wild fit), which also keeps line breaks out of the header it goes into.
    public init?(_ value: String) {
        guard !value.isEmpty, value.utf8.count <= 4096, value.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7F }) else { return nil }
        self.value = value
    }

    /// Reads a token typed or piped in: the first line, without surrounding spaces.
    public init?(reading text: String) {
        let firstLine = text.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).first ?? ""
        self.init(String(firstLine.trimmingWhitespace()))
    }

    /// The `Authorization` header that carries it.
    public var authorizationHeader: HTTPHeader { HTTPHeader(name: "Authorization", value: "Bearer \(value)") }

    public var description: String { "AccessToken(…)" }
    public var debugDescription: String { "AccessToken(…)" }
    /// No children: `dump` and debuggers that walk a value's mirror see no token either.
    public var customMirror: Mirror { Mirror(self, children: [:]) }
}

extension StringProtocol {
    /// Without the spaces, tabs and line breaks at either end (FoundationEssentials has no
    /// `trimmingCharacters(in:)`).
    func trimmingWhitespace() -> SubSequence {
        var slice = self[...]
        while slice.first?.isWhitespace == true { slice = slice.dropFirst() }
        while slice.last?.isWhitespace == true { slice = slice.dropLast() }
        return slice
    }
}
