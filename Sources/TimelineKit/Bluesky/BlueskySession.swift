/// A logged-in Bluesky session: who (DID and handle), the two tokens of
/// `com.atproto.server.createSession`, and the account's own server (its PDS).
///
/// The access token is short-lived (about two hours) and sent with every request; the refresh
/// token (weeks) only to `com.atproto.server.refreshSession`, which answers with a new pair and
/// retires the old refresh token, so the new session must be stored before the next run. Both
/// print as `AccessToken(…)`: the session's description names the account, never a token.
public struct BlueskySession: Sendable, Equatable, CustomStringConvertible {
    /// The account's DID (`did:plc:…`): its stable identity, and the ID its user is stored under.
    public var did: String
    /// The account's handle (`alice.bsky.social`) when the session was made.
    public var handle: String
    /// The token sent with each request (`accessJwt`).
    public var accessToken: AccessToken
    /// The token that makes a new session (`refreshJwt`).
    public var refreshToken: AccessToken
    /// The account's PDS (`https://….host.bsky.network`), from the DID document in the session,
    /// where requests go; `nil` when the session named none (requests then go to the server
    /// logged in to).
    public var pds: String?

    public init(did: String, handle: String, accessToken: AccessToken, refreshToken: AccessToken, pds: String?) {
        self.did = did
        self.handle = handle
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.pds = pds
    }

    public var description: String { "BlueskySession(\(did), @\(handle), tokens: …)" }

    /// What the accounts file keeps of this session (the DID and handle are the account's own
    /// ID and `acct`).
    public var renewable: RenewableSession {
        RenewableSession(accessToken: accessToken, refreshToken: refreshToken, service: pds)
    }

    /// Reads the answer of `createSession` or `refreshSession`. The PDS is the DID document's
    /// `#atproto_pds` service, when it is an address `ServerAddress` accepts (`https://`, or
    /// `http://` to this machine); another is ignored and requests stay with the server logged in to.
    static func read(_ document: JSONNode) throws(JSONLineFailure) -> BlueskySession {
        let view = try JSONObjectView(document, path: "", expected: "a session object")
        let did = try view.requiredString("did")
        guard did.hasPrefix("did:") else { throw view.unexpected("`did` is not a DID: \(QuotedValue.quoted(did))") }
        let access = try view.requiredString("accessJwt")
        let refresh = try view.requiredString("refreshJwt")
        guard let accessToken = AccessToken(access) else { throw view.unexpected("`accessJwt` is not a token") }
        guard let refreshToken = AccessToken(refresh) else { throw view.unexpected("`refreshJwt` is not a token") }
        var pds: String?
        if let services = try? view.object("didDoc", expected: "a DID document")?.array("service", expected: "an array of services") {
            for service in services where service.isObject {
                let id = service["id"]?.stringValue
                guard id == "#atproto_pds" || id == did + "#atproto_pds",
                      let endpoint = service["serviceEndpoint"]?.stringValue,
                      let address = try? ServerAddress(endpoint) else { continue }
                pds = address.baseURL
                break
            }
        }
        return BlueskySession(did: did, handle: try view.requiredString("handle"),
                              accessToken: accessToken, refreshToken: refreshToken, pds: pds)
    }
}
