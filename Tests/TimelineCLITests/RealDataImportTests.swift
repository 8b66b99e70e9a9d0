import Foundation
import Testing
import TimelineKit

@Suite struct RealDataImportTests {
    static let files = [
        "mastodon4j/public_timeline.json", "mastodon4j/tag.json", "mastodon4j/context.json",
        "mastodon4j/account_search.json", "tokodon/statuses.json", "tokodon/statuses-older.json",
        "tokodon/context.json", "tokodon/notifications.json", "TootSDK/post with emojis and attachments.json",
        "TootSDK/post wordle linebreaks.json", "TootSDK/post_akkoma_quote.json",
        "python-twitter/get_home_timeline.json", "python-twitter/friends_timeline-kesuke.json",
        "python-twitter/extended_tweet_in_extended_mode.json",
    ]

    static func path(_ name: String) -> String { Scenario.repositoryPath("Fixtures/realdata/" + name) }

    @Test(arguments: files)
    func eachFileImportsShowsWithinTheWidthAndReimportsWithoutChange(_ name: String) throws {
        let scenario = Scenario()
        let imported = try scenario.timeline.run(["import", Self.path(name)])
        #expect(imported.status == 0, "\(imported.errors)")
        let format = name.hasPrefix("python-twitter") ? "twitter" : "mastodon"
        #expect(imported.errors.split(separator: "\n").count == 1)
        #expect(imported.errors.contains("as \(format) (choose with --format)"))

        for width in [40, 80] {
            for color in ["never", "always"] {
                let shown = try scenario.timeline.run(["show", "-n", "400", "--width", "\(width)", "--color", color])
                #expect(shown.status == 0, "\(shown.errors)")
                #expect(!shown.output.contains("\r"))
                for line in shown.output.split(separator: "\n", omittingEmptySubsequences: false) {
                    #expect(TimelineRenderer.displayWidth(ofLine: String(line)) <= width, "\(name) at \(width): \(line)")
                }
                if color == "never" { #expect(!shown.output.contains("\u{1B}")) }
            }
        }

        let generation = try scenario.sqlite("SELECT generation FROM timeline_state")
        let check = {
            let again = try scenario.timeline.run(["import", "--format", format, Self.path(name)])
            #expect(again.status == 0)
            #expect(again.errors.isEmpty)  // no detection line when --format names the format
            #expect(try scenario.sqlite("SELECT generation FROM timeline_state") == generation)
        }
        try check()
    }

    @Test func aMastodonTimelineOnStandardInputIsDetectedAndImported() throws {
        let scenario = Scenario()
        let data = try #require(FileManager.default.contents(atPath: Self.path("mastodon4j/public_timeline.json")))
        let result = try scenario.timeline.run(["import", "-"], input: data)
        #expect(result.status == 0)
        #expect(result.errors == "timeline: reading Mastodon statuses (a JSON array) as mastodon (choose with --format)\n")
        #expect(result.output == "Imported 19 users (19 new), 20 messages (20 new).\n")
        #expect(try scenario.sqlite("SELECT handle FROM users WHERE id = '14476'") == "iorin0225")
    }

    @Test func jsonLinesOnStandardInputStillStreamsThroughDetection() throws {
        let scenario = Scenario()
        let data = try #require(FileManager.default.contents(atPath: Scenario.sampleTimeline))
        let result = try scenario.timeline.run(["import", "-"], input: data)
        #expect(result.status == 0)
        #expect(result.output.contains("337 messages (337 new)"))
        // JSON Lines is the default: detecting it is not worth a line.
        #expect(!result.errors.contains("as jsonl"))

        // A bad line after the detected start still stops everything, naming <stdin> and the line.
        let bad = Data("{\"type\":\"user\",\"id\":\"x\",\"handle\":\"x\",\"name\":\"X\"}\n{\"type\":\"message\"}\n".utf8)
        let failed = try Scenario().timeline.run(["import", "-"], input: bad)
        #expect(failed.status == 65)
        #expect(failed.errors.contains("<stdin>:2"))
    }

    @Test func contentThatMatchesNoFormatAsksForFormat() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["import", "-"], input: Data(#"[{"name":"neither"}]"#.utf8))
        #expect(result.status == 65)
        #expect(result.errors.contains("--format"))
        let forced = try scenario.timeline.run(["import", "--format", "twitter", Self.path("mastodon4j/tag.json")])
        #expect(forced.status == 65)
        #expect(forced.errors.contains("--format mastodon"))
    }
}
