import Foundation
import Synchronization
import Testing
@testable import TimelineKit

/// A transport that answers from a table and records what it was asked.
final class ScriptedTransport: HTTPTransport {
    let answers: [String: HTTPResponse]
    let sent = Mutex<[HTTPRequest]>([])

    init(_ answers: [String: HTTPResponse]) { self.answers = answers }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        sent.withLock { $0.append(request) }
        let path = String(request.url.drop { $0 != "/" }.dropFirst(2).drop { $0 != "/" }.prefix { $0 != "?" })
        guard let answer = answers["\(request.method.rawValue) \(path)"] else {
            throw .cannotConnect(url: request.url, reason: "no scripted answer")
        }
        return answer
    }

    func stream(_ request: HTTPRequest, receive: @Sendable (Int, [UInt8]) -> Bool) async throws(HTTPTransportError) -> HTTPResponse {
        try await send(request)
    }

    static func json(_ status: Int, _ text: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json")], body: Array(text.utf8))
    }
}

@Suite struct MastodonAuthorizationTests {
    static let app = ScriptedTransport.json(200, #"{"id":"1","client_id":"cid","client_secret":"csecret"}"#)
    static let me = ScriptedTransport.json(200, #"{"id":"7","username":"alice","acct":"alice","display_name":"Alice"}"#)

    @Test func serverAddressesAreWrittenOneWay() throws {
        for (typed, stored) in [("mastodon.social", "https://mastodon.social"), (" https://Mastodon.Social/ ", "https://mastodon.social"),
                                ("https://example.org/social//", "https://example.org/social"), ("http://127.0.0.1:3000", "http://127.0.0.1:3000"),
                                ("http://[::1]:8080/", "http://[::1]:8080")] {
            #expect(try MastodonAuthorization.normalizedServer(typed) == stored)
        }
        for bad in ["http://mastodon.social", "https://a.example/?x=1", "https://user@a.example", "", "https://a b"] {
            #expect(throws: LoginError.self) { try MastodonAuthorization.normalizedServer(bad) }
        }
        #expect(Account.defaultName(username: "alice", server: "https://Mastodon.social") == "alice@mastodon.social")
        #expect(Account.defaultName(username: "t", server: "http://127.0.0.1:3000") == "t@127.0.0.1:3000")
    }

    @Test func theAuthorizationAsksForTheSmallestScopesWithPKCEWhenOffered() async throws {
        let transport = ScriptedTransport([
            "POST /api/v1/apps": Self.app,
            "GET /.well-known/oauth-authorization-server": ScriptedTransport.json(200, #"{"code_challenge_methods_supported":["S256"]}"#),
            "POST /oauth/token": ScriptedTransport.json(200, #"{"access_token":"new-token","token_type":"Bearer"}"#),
        ])
        let login = try MastodonAuthorization(server: "example.social", transport: transport)
        let pending = try await login.begin()
        #expect(pending.client == OAuthClient(id: "cid", secret: "csecret"))
        #expect(pending.usesPKCE)
        let challenge = try #require(pending.pkce?.challenge)
        #expect(pending.authorizationURL == "https://example.social/oauth/authorize?client_id=cid&scope=read%20write&redirect_uri=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&response_type=code&code_challenge=\(challenge)&code_challenge_method=S256")
        #expect(try await login.exchange(code: " the-code \n", for: pending) == AccessToken("new-token"))

        let sent = transport.sent.withLock { $0 }
        #expect(String(decoding: sent[0].body ?? [], as: UTF8.self) == "client_name=timeline&redirect_uris=urn%3Aietf%3Awg%3Aoauth%3A2.0%3Aoob&scopes=read%20write")
        let exchange = String(decoding: sent[2].body ?? [], as: UTF8.self)
        #expect(exchange.hasPrefix("grant_type=authorization_code&code=the-code&client_id=cid&client_secret=csecret&redirect_uri="))
        #expect(exchange.hasSuffix("&code_verifier=\(try #require(pending.pkce?.verifier))"))
        #expect(sent[2].headers.contains(HTTPHeader(name: "Content-Type", value: "application/x-www-form-urlencoded")))
    }

    @Test func withoutMetadataTheFlowGoesOnWithoutPKCE() async throws {
        let transport = ScriptedTransport(["POST /api/v1/apps": Self.app,
                                           "GET /.well-known/oauth-authorization-server": ScriptedTransport.json(404, #"{"error":"Not found"}"#)])
        let pending = try await MastodonAuthorization(server: "example.social", transport: transport).begin()
        #expect(!pending.usesPKCE)
        #expect(!pending.authorizationURL.contains("code_challenge"))
    }

    @Test func answersAreSortedIntoRefusedTemporaryAndUnexpected() async throws {
        let token = AccessToken("the-token")!
        func verify(_ answer: HTTPResponse) async -> LoginError? {
            let login = try! MastodonAuthorization(server: "example.social", transport: ScriptedTransport(["GET /api/v1/accounts/verify_credentials": answer]))
            do {
                _ = try await login.verifyCredentials(token)
                return nil
            } catch {
                return error
            }
        }
        #expect(await verify(Self.me) == nil)
        #expect(await verify(ScriptedTransport.json(401, #"{"error":"The access token is invalid"}"#))
                == .refused(server: "https://example.social", status: 401, message: "The access token is invalid"))
        #expect(await verify(ScriptedTransport.json(503, "<html>down</html>")) == .temporaryFailure(url: "https://example.social/api/v1/accounts/verify_credentials", status: 503, message: ""))
        #expect(await verify(ScriptedTransport.json(429, "{}")) == .temporaryFailure(url: "https://example.social/api/v1/accounts/verify_credentials", status: 429, message: ""))
        #expect(await verify(ScriptedTransport.json(404, "{}")) == .unexpectedAnswer(url: "https://example.social/api/v1/accounts/verify_credentials", status: 404, reason: "no explanation"))
        #expect(await verify(ScriptedTransport.json(200, "<html>")) == .unexpectedAnswer(url: "https://example.social/api/v1/accounts/verify_credentials", status: 200, reason: "its body is not the JSON expected"))
        // A server that quotes the token, or sends escape sequences, has neither reach the terminal.
        let quoting = await verify(ScriptedTransport.json(401, #"{"error":"bad token the-token","error_description":"\u001b[2J\u0007gone"}"#))
        #expect(quoting == .refused(server: "https://example.social", status: 401, message: "bad token \(Secrets.mark): ␛[2J␇gone"))
        let transportFailure = await verify(HTTPResponse(status: 0))
        #expect(transportFailure != nil)
    }

    @Test func revocationSendsTheApplicationsCredentials() async throws {
        let transport = ScriptedTransport(["POST /oauth/revoke": ScriptedTransport.json(200, "{}")])
        let login = try MastodonAuthorization(server: "https://example.social", transport: transport)
        try await login.revoke(AccessToken("tok")!, client: OAuthClient(id: "cid", secret: "cs"))
        let sent = transport.sent.withLock { $0 }
        #expect(sent.map(\.url) == ["https://example.social/oauth/revoke"])
        #expect(String(decoding: sent[0].body ?? [], as: UTF8.self) == "client_id=cid&client_secret=cs&token=tok")
        // An empty 200 body is a success too (some servers send nothing).
        let empty = ScriptedTransport(["POST /oauth/revoke": HTTPResponse(status: 200)])
        try await MastodonAuthorization(server: "https://example.social", transport: empty).revoke(AccessToken("tok")!, client: OAuthClient(id: "c", secret: "s"))
    }

    @Test func sha256MatchesTheNISTVectorsAndPKCETheRFCExample() {
        func hex(_ bytes: [UInt8]) -> String { bytes.map { String(format: "%02x", $0) }.joined() }
        #expect(hex(ContentDigest.sha256([])) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(hex(ContentDigest.sha256(Array("abc".utf8))) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(hex(ContentDigest.sha256(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))) == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
        #expect(hex(ContentDigest.sha256([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
        // Every padding length: 55, 56 and 64 bytes straddle the block boundary.
        #expect(hex(ContentDigest.sha256([UInt8](repeating: 0x61, count: 55))) == "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318")
        #expect(hex(ContentDigest.sha256([UInt8](repeating: 0x61, count: 56))) == "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a")
        #expect(hex(ContentDigest.sha256([UInt8](repeating: 0x61, count: 64))) == "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb")
        // RFC 7636, appendix B.
        #expect(PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk").challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let fresh = PKCE()
        #expect(fresh.verifier.count == 43)
        #expect(fresh.verifier != PKCE().verifier)
        #expect(PKCE.base64URL([0xfb, 0xff]) == "-_8")
    }
}
