import Foundation
import Testing
@testable import TimelineKit

/// `timeline import` of saved Bluesky answers: told from their content, stored as sync stores
/// them, and hostile input (cut anywhere, long runs of odd Unicode) refused or read in linear time.
@Suite struct BlueskyImportTests {
    @Test func savedAnswersAreToldFromTheirContentAndStoredAsSyncStoresThem() throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        for name in ["getTimeline-proxied.json", "getTimeline-alice.json", "listNotifications.json"] {
            var detected: FormatDetection?
            let summary = try TimelineImporter(store: store).importFile(atPath: Fixtures.path("Bluesky/" + name)) { detected = $0 }
            #expect(detected?.format == .bluesky, "\(name)")
            #expect(summary.messages > 0, "\(name)")
        }
        let decoded = try BlueskyDecoder().decode(Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Bluesky/getTimeline-proxied.json")))))
        for message in decoded.messages {
            #expect(try store.message(id: message.id) != nil, "\(message.id)")
        }
        // A feed saved on its own, as an array of items, is Bluesky too.
        let items = #"[{"post":{"uri":"at://did:plc:a/app.bsky.feed.post/1","cid":"c","indexedAt":"2026-11-20T10:00:00Z","author":{"did":"did:plc:a","handle":"a.test"},"record":{"text":"hi","createdAt":"2026-11-20T10:00:00Z"}}}]"#
        let path = directory.file("items.json")
        try Data(items.utf8).write(to: URL(fileURLWithPath: path))
        var detected: FormatDetection?
        _ = try TimelineImporter(store: store).importFile(atPath: path) { detected = $0 }
        #expect(detected?.format == .bluesky)
        #expect(try store.message(id: "at://did:plc:a/app.bsky.feed.post/1")?.text == "hi")
    }

    @Test func anAnswerCutAtEveryByteIsReadOrRefusedNamingWhere() throws {
        let whole = Array(#"{"feed":[{"post":{"uri":"at://did:plc:a/app.bsky.feed.post/1","cid":"c","indexedAt":"2026-11-20T10:00:00Z","author":{"did":"did:plc:a","handle":"a.test","displayName":"Ä 🦋"},"record":{"text":"héllo https://x.example/a…","createdAt":"2026-11-20T10:00:00Z","facets":[{"index":{"byteStart":7,"byteEnd":29},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"https://x.example/abc"}]}]}},"reason":{"$type":"app.bsky.feed.defs#reasonRepost","by":{"did":"did:plc:b","handle":"b.test"},"indexedAt":"2026-11-20T11:00:00Z"}}],"cursor":"x"}"#.utf8)
        #expect(try BlueskyDecoder().decode(whole).messages.count == 2)
        for end in 1 ..< whole.count {
            do {
                _ = try BlueskyDecoder().decode(Array(whole[..<end]), sourceName: "cut.json")
            } catch {
                #expect(error.line != nil || error.field != nil, "\(end): \(error)")
            }
        }
    }

    @Test func longRunsOfOddUnicodeInTextsFacetsAndNamesCostWhatPlainTextOfTheSameSizeCosts() throws {
        /// A post whose text, facets and author name are `text`, `facets` and `name`.
        func answer(text: String, facets: [String], name: String) -> [UInt8] {
            Array(#"{"feed":[{"post":{"uri":"at://did:plc:a/app.bsky.feed.post/1","cid":"c","indexedAt":"2026-11-20T10:00:00Z","author":{"did":"did:plc:a","handle":"a.test","displayName":"\#(name)"},"record":{"text":"\#(text)","createdAt":"2026-11-20T10:00:00Z","facets":[\#(facets.joined(separator: ","))]}}}]}"#.utf8)
        }
        func link(_ start: Int, _ end: Int, _ index: Int) -> String {
            #"{"index":{"byteStart":\#(start),"byteEnd":\#(end)},"features":[{"$type":"app.bsky.richtext.facet#link","uri":"https://x.example/\#(index)"}]}"#
        }
        let count = 4_000
        // Flags, stacked marks, bidi overrides and zero-width spaces; a facet per flag that
        // starts inside a character (ignored, but read); a name of pirate flags.
        let odd = String(repeating: "🇯🇵", count: count) + String(repeating: "e\u{301}\u{302}\u{303}", count: count)
            + String(repeating: "\u{202E}\u{200B}", count: count)
        let hostile = answer(text: odd, facets: (0 ..< count).map { link($0 * 8 + 3, $0 * 8 + 9, $0) },
                             name: String(repeating: "🏴‍☠️", count: count))
        // The same number of bytes of plain text, with as many facets that are all used.
        let plain = String(repeating: "a", count: odd.utf8.count)
        let normal = answer(text: plain, facets: (0 ..< count).map { link($0 * 8, $0 * 8 + 4, $0) },
                            name: String(repeating: "n", count: String(repeating: "🏴‍☠️", count: count).utf8.count))
        CostRatio.expect("odd Unicode in a Bluesky post", hostile: { _ = try? BlueskyDecoder().decode(hostile) },
                         normal: { _ = try? BlueskyDecoder().decode(normal) })
        let decoded = try BlueskyDecoder().decode(hostile)
        let user = try #require(decoded.user(id: "did:plc:a"))
        #expect(user.name.count <= UserLimits.maximumNameCharacters)
        let message = try #require(decoded.message(id: "at://did:plc:a/app.bsky.feed.post/1"))
        #expect(message.text == odd)
    }
}
