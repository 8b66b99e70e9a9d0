/// An account `timeline` is logged in to: which server, who, and how to get its token. Stored in
/// the accounts file (see ``AccountStore``); `timeline login` creates one, `timeline logout`
/// removes it.
public struct Account: Sendable, Equatable {
    /// The name the account is known by on the command line (`--account NAME`), unique in the
    /// file. Defaults to `username@host` (`alice@mastodon.social`).
    public var name: String
    /// The kind of server: ``Network/mastodon`` (Mastodon and servers speaking its API:
    /// Pleroma, Akkoma, GoToSocial, …), ``Network/bluesky`` (any AT Protocol PDS), or another
    /// of ``Network/registered``.
    public var network: Network
    /// The server's base URL, `https://host` (or `http://127.0.0.1:PORT` for local tests), no
    /// trailing slash. For Bluesky, the server logged in to (`https://bsky.social`); requests go
    /// to the account's PDS, kept in its session.
    public var server: String
    /// The account's ID on its server, from `verify_credentials`; for Bluesky, its DID.
    public var accountID: String
    /// The account's `acct` on its server (the username, for a local account); for Bluesky, its
    /// handle.
    public var acct: String
    /// The OAuth application `timeline login` registered, which `logout` needs to revoke the
    /// token; `nil` for a token given with `--token-stdin` (created in the server's settings).
    public var client: OAuthClient?
    /// Where the access token comes from.
    public var secret: Secret
    /// The feed the account's sync reads as its home timeline instead of the one the server
    /// keeps (issue 37): a Bluesky custom feed's AT URI (`timeline home --set NAME`); `nil`
    /// for the server's own ("Following"). Stored as `home_feed`; files without it read as `nil`.
    public var homeFeed: String?

    /// Where an account's access token comes from.
    public enum Secret: Sendable, Equatable {
        /// The token, stored in the accounts file.
        case token(AccessToken)
        /// A command run through `/bin/sh -c` whose first line of output is the token: a
        /// password manager (`pass show mastodon/alice`, `op read op://…`, `secret-tool lookup …`).
        case command(String)
        /// A session a password login opened (Bluesky's app password): its two tokens and where
        /// requests go, stored in the accounts file and replaced there each time the network's
        /// code renews it.
        case session(RenewableSession)
    }

    /// An account with every part given (``MastodonAuthorization/account(for:named:client:secret:)``
    /// builds one from a login).
    public init(name: String, network: Network, server: String, accountID: String, acct: String,
                client: OAuthClient?, secret: Secret) {
        self.name = name
        self.network = network
        self.server = server
        self.accountID = accountID
        self.acct = acct
        self.client = client
        self.secret = secret
    }

    /// What a person types to log in to this account again (after its token was revoked, say):
    /// `timeline login mastodon example.social`, `timeline login bluesky alice.bsky.social`,
    /// with `--service` and `--name` where the account was not logged in with the defaults.
    public var loginCommand: String {
        let words = ["timeline", "login", network.rawValue] + network.loginArguments(self)
        return words.map(Self.shellWord).joined(separator: " ")
    }

    /// `word` as a shell reads it back: as it is when it is plain, else in single quotes.
    private static func shellWord(_ word: String) -> String {
        let plain = word.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || [UInt8(ascii: "."), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "@"), UInt8(ascii: ":"), UInt8(ascii: "/")].contains(byte)
        }
        return plain && !word.isEmpty ? word : "'" + word.replacing("'", with: "'\\''") + "'"
    }

    /// The default name of a Mastodon account: `username@host[:port]` of its server, the
    /// server-chosen username made a valid name (``normalizedName(_:)``).
    public static func defaultName(username: String, server: String) -> String {
        let authority = server.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? Substring(server)
        return normalizedName("\(username)@\(authority.lowercased())")
    }

    /// The default name of a Bluesky account: its handle made a valid name, with no `@` (a
    /// handle is a domain name and has none), so that it can never be the name of a Mastodon
    /// account by default (those are `username@host`): the two networks' names never collide.
    public static func defaultBlueskyName(handle: String) -> String {
        // By scalar, not by character: a prepended mark (U+0600…U+0605, U+06DD) makes `@` part
        // of one grapheme cluster with it, which a `Character` replacement passes over (the
        // import fuzzer's names run found "\u{600}@" kept).
        normalizedName(String(String.UnicodeScalarView(handle.unicodeScalars.map { $0 == "@" ? "_" : $0 })))
    }

    // MARK: Names

    /// The longest name, in UTF-8 bytes.
    public static let maximumNameBytes = 200

    /// What is wrong with `name` as an account's name, or `nil` when it is valid. A name is
    /// typed on command lines (`--account NAME`), listed one a line, and stored as a key of the
    /// accounts file: 1 to ``maximumNameBytes`` bytes, with no space of any kind, no line
    /// break, no control or format character (escape sequences, bidi overrides, invisible
    /// characters).
    public static func nameProblem(_ name: String) -> String? {
        if name.isEmpty { return "a name cannot be empty" }
        if name.utf8.count > maximumNameBytes { return "a name has at most \(maximumNameBytes) bytes" }
        if name.unicodeScalars.contains(where: isForbiddenInName) {
            return "a name cannot hold spaces, line breaks, or control or invisible characters"
        }
        return nil
    }

    /// `text` (a username or handle a server chose) made a valid name: each space, line break,
    /// control or format character becomes `_`, and it is cut to ``maximumNameBytes``;
    /// `account` when nothing is left. A valid name is returned as it is.
    public static func normalizedName(_ text: String) -> String {
        guard nameProblem(text) != nil else { return text }
        var result = String.UnicodeScalarView()
        var bytes = 0
        for scalar in text.unicodeScalars {
            let kept: Unicode.Scalar = isForbiddenInName(scalar) ? "_" : scalar
            bytes += kept.utf8.count
            if bytes > maximumNameBytes { break }
            result.append(kept)
        }
        return result.isEmpty ? "account" : String(result)
    }

    private static func isForbiddenInName(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .control, .format, .spaceSeparator, .lineSeparator, .paragraphSeparator, .unassigned, .surrogate, .privateUse: true
        default: scalar.properties.isWhitespace
        }
    }

    /// Whether `other` is this same account on the same server (a login again, for a new
    /// token), which may replace it without being asked.
    public func isSameAccount(as other: Account) -> Bool {
        network == other.network && server == other.server && accountID == other.accountID
    }
}

/// An OAuth application registered on a server (`POST /api/v1/apps`).
/// It prints without its secret.
public struct OAuthClient: Sendable, Equatable, CustomStringConvertible, CustomReflectable {
    /// The application's public ID.
    public var id: String
    /// The application's secret, sent only to the server that issued it (token exchange and
    /// revocation).
    public var secret: String

    /// The application's ID and secret, as `POST /api/v1/apps` answered them.
    public init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    public var description: String { "OAuthClient(id: \(id), secret: …)" }
    /// The ID only: `dump` shows no secret.
    public var customMirror: Mirror { Mirror(self, children: ["id": id]) }
}
