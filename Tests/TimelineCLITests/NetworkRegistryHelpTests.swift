import Foundation
import Testing

/// Issue 35: what `timeline` says about the networks it logs in to is made from TimelineKit's
/// registry, never listed by hand: `login`'s help (abstract, argument, each network's paragraph
/// and examples) and the hint said when no account can do what was asked (only the networks
/// that can: bookmarks are Mastodon's).
@Suite struct NetworkRegistryHelpTests {
    /// `text` with every run of white space one space: help is wrapped to the terminal's width.
    private static func flowing(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test func loginsHelpSaysEveryRegisteredNetworkInItsOwnWords() throws {
        let result = try EmptyHome().timeline.run(["login", "--help"])
        #expect(result.status == 0, "\(result.errors)")
        let help = Self.flowing(result.output)
        for expected in [
            "Log in to mastodon servers (Mastodon and servers speaking its API) or to bluesky.",
            "The network: mastodon or bluesky.",
            "Each network logs in its own way:",
            "--token-stdin reads an access token instead",
            "timeline login mastodon example.social --token-command \\ 'pass show mastodon/token'",
            "Bluesky: `timeline login bluesky HANDLE` with an app password",
            "timeline login bluesky alice.bsky.social",
        ] {
            #expect(help.contains(expected), "login --help lacks \(expected):\n\(result.output)")
        }
    }

    @Test func theHintWithoutAnAccountNamesTheNetworksThatCanDoIt() throws {
        let home = EmptyHome()
        let follow = try home.timeline.run(["follow", "alice@example.social"])
        #expect(follow.status == 64)
        #expect(follow.errors.contains("no account is logged in: timeline login mastodon example.social (or: login bluesky HANDLE)."),
                "\(follow.errors)")
        let bookmarks = try home.timeline.run(["bookmarks"])
        #expect(bookmarks.status == 64)
        #expect(bookmarks.errors.contains("no account is logged in: timeline login mastodon example.social\n"), "\(bookmarks.errors)")
    }
}
