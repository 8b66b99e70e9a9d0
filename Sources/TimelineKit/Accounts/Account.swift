/// An account `timeline` is logged in to: which server, who, and how to get its token. Stored in
/// the accounts file (see ``AccountStore``); `timeline login` creates one, `timeline logout`
/// removes it.
public struct Account: Sendable, Equatable {
    /// The name the account is known by on the command line (`--account NAME`), unique in the
    /// file. Defaults to `username@host` (`alice@mastodon.social`).
    public var name: String
    /// The kind of server: ``Network/mastodon`` (Mastodon and servers speaking its API:
    /// Pleroma, Akkoma, GoToSocial, …) or ``Network/bluesky`` (any AT Protocol PDS).
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

    /// The servers `timeline` can log in to.
    public enum Network: String, Sendable {
        case mastodon
        case bluesky
    }

    /// Where an account's access token comes from.
    public enum Secret: Sendable, Equatable {
        /// The token, stored in the accounts file.
        case token(AccessToken)
        /// A command run through `/bin/sh -c` whose first line of output is the token: a
        /// password manager (`pass show mastodon/alice`, `op read op://…`, `secret-tool lookup …`).
        case command(String)
        /// A Bluesky session (its access and refresh tokens and PDS), stored in the accounts
        /// file and replaced there each time it is refreshed.
        case session(BlueskySession)
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
        var words = ["timeline", "login", network.rawValue]
        switch network {
        case .mastodon:
            // https is what login assumes; another scheme (a loopback test server) is spelled out.
            words.append(server.hasPrefix("https://") ? String(server.dropFirst("https://".count)) : server)
            if name != Self.defaultName(username: acct, server: server) { words += ["--name", name] }
        case .bluesky:
            words.append(acct)
            if server != "https://bsky.social" { words += ["--service", server] }
            if name != acct { words += ["--name", name] }
        }
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

    /// The default name of an account: `username@host[:port]` of its server.
    public static func defaultName(username: String, server: String) -> String {
        let authority = server.split(separator: "/", omittingEmptySubsequences: true).dropFirst().first ?? Substring(server)
        return "\(username)@\(authority.lowercased())"
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
