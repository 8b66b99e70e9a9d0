/// Logging in to a Mastodon-API server (Mastodon, Pleroma, Akkoma, GoToSocial, …) with OAuth's
/// out-of-band flow, and out again: the protocol part of `timeline login` and `timeline logout`,
/// over any ``HTTPTransport``. The command line does the talking to the person.
///
/// ```swift
/// let login = try MastodonAuthorization(server: "mastodon.social", transport: CurlTransport())
/// let pending = try await login.begin()              // registers the app
/// print("Open \(pending.authorizationURL)")          // the person approves, gets a code
/// let token = try await login.exchange(code: typedCode, for: pending)
/// let me = try await login.verifyCredentials(token)
/// try AccountStore.standard().save(login.account(for: me, client: pending.client, secret: .token(token)))
/// ```
///
/// The scopes asked for are the classic `read write` (``scopes``), which every server of the API
/// knows. Mastodon has had granular scopes (`read:statuses`, `write:statuses`, …) since 2.4.3
/// and still accepts `read` and `write`; Pleroma and Akkoma accept both kinds; GoToSocial
/// documents `read` and `write` (granular scopes came later); Takahē knows only `read`,
/// `write`, `follow` and `push`: its `verify_credentials` requires the whole `read` scope and
/// answers a token of granular scopes 403 `out_of_scope_for_token`, so the granular set that
/// `timeline` asked for before made browser logins fail there. Asking for both kinds would
/// grant their union, which is `read write` again. `timeline` needs reading (the account, the
/// home timeline, notifications, markers, the stream) and writing statuses and markers.
public struct MastodonAuthorization: Sendable {
    /// The server's base URL, normalised: `https://host[:port][/path]`, no trailing slash.
    public let server: String
    /// How requests are made.
    public let transport: any HTTPTransport

    /// The scopes `timeline` asks for (see the type's documentation for why each).
    public static let scopes = "read write"
    /// Out-of-band redirect: the server shows the code for the person to copy.
    public static let redirectURI = "urn:ietf:wg:oauth:2.0:oob"
    /// The application's name, shown on the server's authorization page and in its settings.
    public static let applicationName = "timeline"

    /// Prepares to talk to `server`, written as a person types it: `mastodon.social`,
    /// `https://mastodon.social/`, `http://127.0.0.1:3000` (plain http to loopback only).
    public init(server: String, transport: any HTTPTransport) throws(LoginError) {
        self.server = try Self.normalizedServer(server)
        self.transport = transport
    }

    /// A server address as the accounts file keeps it. `https://` is assumed when no scheme
    /// is given; a query or fragment is refused.
    public static func normalizedServer(_ text: String) throws(LoginError) -> String {
        do throws(ServerError) {
            return try ServerAddress.normalized(text)
        } catch {
            // `normalized` refuses with `.invalidServer` only; its reason is the login's.
            guard case let .invalidServer(_, reason) = error else { throw .invalidServer(text, reason: "\(error)") }
            throw .invalidServer(text, reason: reason)
        }
    }

    /// An authorization that waits for the code the person copies from the server's page.
    public struct PendingAuthorization: Sendable {
        /// The application registered for it.
        public let client: OAuthClient
        /// The page to open in a browser.
        public let authorizationURL: String
        /// Whether the code is bound with PKCE S256 (when the server says it supports it).
        public var usesPKCE: Bool { pkce != nil }
        let pkce: PKCE?
    }

    /// Registers the application (`POST /api/v1/apps`), asks whether the server supports PKCE
    /// (`GET /.well-known/oauth-authorization-server`, Mastodon 4.3 and later; without it the
    /// flow goes on without PKCE) and builds the authorization URL.
    public func begin() async throws(LoginError) -> PendingAuthorization {
        let client = try await call(
            .post, "/api/v1/apps",
            form: [("client_name", Self.applicationName), ("redirect_uris", Self.redirectURI), ("scopes", Self.scopes)]
        ) { answer in
            answer.text("client_id").flatMap { id in answer.text("client_secret").map { OAuthClient(id: id, secret: $0) } }
        }
        let pkce = await supportsPKCE() ? PKCE() : nil
        var query: [(name: String, value: String)] = [
            ("client_id", client.id), ("scope", Self.scopes), ("redirect_uri", Self.redirectURI), ("response_type", "code"),
        ]
        if let pkce { query += [("code_challenge", pkce.challenge), ("code_challenge_method", "S256")] }
        return PendingAuthorization(client: client, authorizationURL: server + "/oauth/authorize?" + FormEncoding.encode(query), pkce: pkce)
    }

    /// Whether the server's OAuth metadata lists S256 among `code_challenge_methods_supported`.
    /// Any failure means no: older servers have no metadata, and PKCE is then left out.
    public func supportsPKCE() async -> Bool {
        let methods = try? await call(.get, "/.well-known/oauth-authorization-server") { answer in
            answer["code_challenge_methods_supported"]?.arrayValue?.compactMap(\.stringValue)
        }
        return methods?.contains("S256") == true
    }

    /// Exchanges the code the person copied (`POST /oauth/token`) for an access token.
    public func exchange(code: String, for pending: PendingAuthorization) async throws(LoginError) -> AccessToken {
        guard let code = AccessToken(reading: code) else { throw .invalidCode }
        var form: [(name: String, value: String)] = [
            ("grant_type", "authorization_code"), ("code", code.value), ("client_id", pending.client.id),
            ("client_secret", pending.client.secret), ("redirect_uri", Self.redirectURI), ("scope", Self.scopes),
        ]
        if let pkce = pending.pkce { form.append(("code_verifier", pkce.verifier)) }
        return try await call(.post, "/oauth/token", form: form, refusals: [400, 401, 403]) { answer in
            answer.text("access_token").flatMap { AccessToken($0) }
        }
    }

    /// The account a token belongs to (`GET /api/v1/accounts/verify_credentials`): a token the
    /// server refuses is ``LoginError/refused(server:status:message:)``.
    public func verifyCredentials(_ token: AccessToken) async throws(LoginError) -> VerifiedAccount {
        try await call(.get, "/api/v1/accounts/verify_credentials", token: token, refusals: [401, 403]) { answer in
            guard let id = answer.text("id"), let username = answer.text("username"), let acct = answer.text("acct") else { return nil }
            return VerifiedAccount(id: id, username: username, acct: acct, displayName: answer.text("display_name"))
        }
    }

    /// Revokes `token` (`POST /oauth/revoke`, with the credentials of the application it was
    /// issued to).
    public func revoke(_ token: AccessToken, client: OAuthClient) async throws(LoginError) {
        // Mastodon answers `{}`; some servers send nothing. Either is a success.
        _ = try await call(
            .post, "/oauth/revoke",
            form: [("client_id", client.id), ("client_secret", client.secret), ("token", token.value)],
            refusals: [400, 401, 403], emptyBody: true) { _ in true }
    }

    /// The account to store for a verified login: named `name`, else `username@host`.
    public func account(for verified: VerifiedAccount, named name: String? = nil, client: OAuthClient?, secret: Account.Secret) -> Account {
        Account(name: name ?? Account.defaultName(username: verified.username, server: server), network: .mastodon,
                server: server, accountID: verified.id, acct: verified.acct, client: client, secret: secret)
    }

    // MARK: - Requests

    /// One request and what `read` takes from its JSON answer (`nil`: not what was expected).
    /// `refusals` are statuses that mean "these credentials are refused"; 429, 5xx and 206 are
    /// temporary; anything else but 200 is unexpected.
    private func call<Answer>(
        _ method: HTTPRequest.Method, _ path: String, form: [(name: String, value: String)]? = nil,
        token: AccessToken? = nil, refusals: Set<Int> = [], emptyBody: Bool = false,
        read: (JSONNode) -> Answer?
    ) async throws(LoginError) -> Answer {
        let url = server + path
        var headers = [HTTPHeader(name: "Accept", value: "application/json")]
        if let token { headers.append(token.authorizationHeader) }
        if form != nil { headers.append(HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")) }
        let request = HTTPRequest(method: method, url: url, headers: headers, body: form.map { Array(FormEncoding.encode($0).utf8) },
                                  maximumResponseBytes: 1 << 20)
        let response: HTTPResponse
        do throws(HTTPTransportError) {
            response = try await transport.send(request)
        } catch {
            throw .transport(error)
        }
        let secrets = [token?.value] + (form ?? []).filter { ["code", "client_secret", "token", "code_verifier"].contains($0.name) }.map(\.value)
        let message = ServerResponseReader.errorMessage(response.body, hiding: secrets.compactMap { $0 })
        switch response.status {
        case 200:
            break
        case _ where refusals.contains(response.status) || (token != nil && TokenRefusal.isRefusal(response)):
            throw .refused(server: server, status: response.status, message: message)
        case 206, 429, 500...599:
            throw .temporaryFailure(url: url, status: response.status, message: message)
        default:
            throw .unexpectedAnswer(url: url, status: response.status, reason: message.isEmpty ? "no explanation" : message)
        }
        let document = emptyBody && response.body.isEmpty ? JSONNode(value: .object([]), offset: 0) : try? JSONFields.document(response.body)
        guard let document, let answer = read(document) else {
            throw .unexpectedAnswer(url: url, status: response.status, reason: "its body is not the JSON expected")
        }
        return answer
    }
}
