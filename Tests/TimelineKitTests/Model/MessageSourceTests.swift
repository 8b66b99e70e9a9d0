import Foundation
import Testing
@testable import TimelineKit

/// Where a message came from (issue 35): a registered name stored with it; a message stored
/// before sources were is told by its ID, as the renderer used to tell every message.
@Suite struct MessageSourceTests {
    @Test(arguments: [
        ("at://did:plc:abc/app.bsky.feed.post/3kxyz", MessageSource.bluesky),
        ("mastodon.social/113542871234567890", .mastodon),
        ("127.0.0.1:3000/5", .mastodon),
        ("[::1]:3000/5", .mastodon),
        ("117626012958762273", .import),
        ("local-2026-abc", .import),
        ("a/b", .import),
        ("/x", .import),
        ("Evil Host.example/1", .import),
        ("", .import),
    ])
    func aMessageStoredBeforeSourcesIsToldByItsID(id: String, source: MessageSource) {
        #expect(MessageSource.toldByID(id) == source)
    }

    @Test(arguments: ["weather", "a", "rss-2", String(repeating: "x", count: 32)])
    func aNameOfLowercaseLettersDigitsAndDashesNamesASource(name: String) throws {
        #expect(try MessageSource(name).rawValue == name)
    }

    @Test(arguments: ["", "Weather", "2fast", "-x", "a b", "wéather", "a\u{1B}[31m", String(repeating: "x", count: 33)])
    func anyOtherNameIsRefusedSayingWhatANameIs(name: String) {
        #expect(throws: MessageSourceError.invalidName(name)) { try MessageSource(name) }
        #expect(MessageSourceError.invalidName(name).description.contains("lowercase ASCII letters"))
    }

    @Test func aRegisteredSourcePaintsItsOwnMarkAndAnUnregisteredOneItsName() throws {
        let weather = try MessageSource("weather-test")
        #expect(RenderSymbols.unicode.mark(for: weather) == "weather-test")
        #expect(RenderSymbols.unicode.mark(for: MessageSource(unchecked: "evil\u{1B}[2J")) == nil)
        #expect(weather.label == "weather-test")
        MessageSource.register(weather, mark: "☁", asciiMark: "[weather]", label: "Weather")
        #expect(RenderSymbols.unicode.mark(for: weather) == "☁")
        #expect(RenderSymbols.ascii.mark(for: weather) == "[weather]")
        #expect(weather.label == "Weather")
        #expect(RenderSymbols.unicode.mark(for: .bluesky) == "🦋")
        #expect(RenderSymbols.ascii.mark(for: .mastodon) == "masto")
        #expect(RenderSymbols.unicode.mark(for: .import) == nil)
    }

    /// The source is stored, read back, kept in the snapshot, and a row another program wrote
    /// with a name that cannot be one reads as `import`.
    @Test func theSourceIsStoredAndReadBackAndKeptInTheSnapshot() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var fed = Samples.message(1)
        fed.source = .feed
        try store.upsert(messages: [fed, Samples.message(2)])
        #expect(try store.message(id: "m1")?.source == .feed)
        #expect(try store.message(id: "m2")?.source == .import)
        #expect(try store.snapshotFile.read().window.messages.map(\.source) == [.import, .feed])
        try SQLiteShell.run(directory.file("timeline.sqlite"), "UPDATE messages SET source = 'Not A Name' WHERE id = 'm1'")
        #expect(try store.message(id: "m1")?.source == .import)
        // A row stored before the column (NULL) is told by its ID.
        try SQLiteShell.run(directory.file("timeline.sqlite"), "UPDATE messages SET id = 'at://did:plc:x/app.bsky.feed.post/1', source = NULL WHERE id = 'm2'")
        #expect(try store.message(id: "at://did:plc:x/app.bsky.feed.post/1")?.source == .bluesky)
    }

    /// `show --json` writes the source, and such a line imports with it.
    @Test func aJSONLinesLineImportsWithTheSourceItNames() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        var message = Samples.message(1)
        message.source = .feed
        let line = JSONLinesExporter.line(for: message, author: Samples.alice)
        #expect(line.contains(#""source":"feed""#))
        try store.importText(JSONLinesExporter.line(for: Samples.alice) + "\n" + line, in: directory)
        #expect(try store.message(id: "m1")?.source == .feed)
    }

    @Test func aMessageEncodedAsJSONKeepsItsSourceAndOneWithoutReadsAsImport() throws {
        var message = Samples.message(1)
        message.source = .bluesky
        let data = try JSONEncoder().encode(message)
        #expect(try JSONDecoder().decode(Message.self, from: data).source == .bluesky)
        var object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        object["source"] = nil
        let older = try JSONSerialization.data(withJSONObject: object)
        #expect(try JSONDecoder().decode(Message.self, from: older).source == .import)
    }
}
