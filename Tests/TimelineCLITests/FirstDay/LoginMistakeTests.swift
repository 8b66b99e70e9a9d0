import Foundation
import Testing

/// The mistakes people make when they log in, each answered with what they meant
/// (issue 23, items 12 to 14).
@Suite struct LoginMistakeTests {
    @Test(arguments: [
        (["login", "mastodon.social"], "did you mean: timeline login mastodon mastodon.social"),
        (["login", "alice.bsky.social"], "did you mean: timeline login bluesky alice.bsky.social"),
        (["login", "mastodn", "example.social"], "did you mean: timeline login mastodon example.social"),
        (["login", "blusky", "alice.bsky.social"], "did you mean: timeline login bluesky alice.bsky.social"),
        (["login", "mastodon"], "say which server: timeline login mastodon example.social"),
    ])
    func aMistypedLoginSaysWhatWasMeant(arguments: [String], suggestion: String) throws {
        let home = EmptyHome()
        let result = try home.timeline.run(arguments)
        #expect(result.status == 64)
        #expect(result.errors.contains(suggestion), "\(result.errors)")
        #expect(!home.exists(".config"))
    }

    /// A development server on this machine speaks plain http; https to it fails the handshake.
    @Test func tlsToAPlainLoopbackServerSuggestsItsHTTPAddress() throws {
        let server = try MastodonTestServer()
        let home = EmptyHome()
        let result = try home.timeline.run(["login", "mastodon", "127.0.0.1:\(server.port)", "--token-stdin"],
                                           input: Data((MastodonTestServer.token + "\n").utf8))
        #expect(result.status == 69, "\(result.errors)")
        #expect(result.errors.contains("try http://127.0.0.1:\(server.port)"), "\(result.errors)")
    }

    /// Bluesky's login fails at once when its server cannot be reached, as Mastodon's does (69),
    /// not after four attempts as a temporary failure (75).
    @Test func aBlueskyServerThatCannotBeReachedIsSaidAtOnce() throws {
        let home = EmptyHome()
        let closed = try MastodonTestServer.closedLoopbackPort()
        let result = try home.timeline.run(["login", "bluesky", "alice.test", "--service", "http://127.0.0.1:\(closed)", "--app-password-stdin"],
                                           input: Data("app-pass\n".utf8))
        #expect(result.status == 69, "\(result.errors)")
        #expect(!result.errors.contains("attempts"), "\(result.errors)")
    }

    @Test func aWrongBlueskyPasswordSaysAnAppPasswordIsNeeded() throws {
        let server = try BlueskyTestServer.start()
        let home = EmptyHome()
        let result = try home.timeline.run(["login", "bluesky", BlueskyTestServer.handle, "--service", server.baseURL, "--app-password-stdin"],
                                           input: Data("my-account-password\n".utf8))
        #expect(result.status == 77, "\(result.errors)")
        #expect(result.errors.contains("Settings → Privacy and security → App passwords"), "\(result.errors)")
        #expect(!home.exists(".config/timeline/accounts.json"))
    }
}
