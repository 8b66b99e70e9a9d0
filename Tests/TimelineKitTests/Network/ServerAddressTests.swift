import Testing
@testable import TimelineKit

@Suite struct ServerAddressTests {
    @Test func aServersAddressGivesItsOriginAndTheAuthorityItsIDsAreStoredUnder() throws {
        let plain = try ServerAddress("Mastodon.Social")
        #expect(plain.baseURL == "https://mastodon.social")
        #expect(plain.authority == "mastodon.social")
        #expect(try ServerAddress("https://mastodon.social:443/").authority == "mastodon.social")
        #expect(try ServerAddress("https://social.example:8443").authority == "social.example:8443")
        let local = try ServerAddress("http://[::1]:3000/")
        #expect(local.origin == "http://[::1]:3000")
        #expect(local.authority == "[::1]:3000")
        let prefixed = try ServerAddress("https://example.org/social/")
        #expect(prefixed.url("/api/v1/markers", query: [("timeline[]", "home")]) == "https://example.org/social/api/v1/markers?timeline%5B%5D=home")
        #expect(MastodonNamespace(server: plain).id("1098") == "mastodon.social/1098")
        #expect(MastodonNamespace(server: plain).serverID(of: "mastodon.social/1098") == "1098")
        #expect(MastodonNamespace(server: plain).serverID(of: "mastodon.social.evil/1098") == nil)
    }

    @Test func addressesATokenMustNotBeSentToAreRefused() {
        for text in ["http://mastodon.social", "ftp://mastodon.social", "https://user@mastodon.social", "https://a.example/?x=1", ""] {
            #expect(throws: ServerError.self, "\(text)") { try ServerAddress(text) }
        }
    }

    @Test func onlyURLsOnTheServersOwnOriginCarryTheToken() throws {
        let server = try ServerAddress("https://social.example")
        #expect(server.isOnOrigin("https://social.example/api/v1/timelines/home?max_id=1"))
        #expect(server.isOnOrigin("HTTPS://SOCIAL.EXAMPLE/api"))
        #expect(!server.isOnOrigin("https://social.example.evil.example/api"))
        #expect(!server.isOnOrigin("https://social.example:444/api"))
        #expect(!server.isOnOrigin("http://social.example/api"))
        #expect(!server.isOnOrigin("https://social.example@evil.example/api"))
    }
}
