// DOC-EXAMPLE-BEGIN (the same lines as the TimelineKit example of docs/internals.md)
import Foundation
import TimelineKit

func storeFetchedPosts(databasePath: String) throws -> [String] {
    // Opens (or creates) the database; every write below also refreshes the snapshot beside it.
    let store = try TimelineStore(path: databasePath)
    let bot = User(id: "bot-1", handle: "weatherbot", name: "Weather Bot", isBot: true)
    let posts = (1...3).map { n in
        Message(id: "wx-\(n)", authorID: bot.id, text: "Forecast #\(n): sunny",
                createdAt: Date(timeIntervalSince1970: 1_795_000_000 + Double(n) * 60))
    }
    // One transaction: users and messages together; IDs already stored are updated in place.
    try store.write { transaction in
        try transaction.upsert(users: [bot])
        try transaction.upsert(messages: posts)
    }
    try store.markRead(ids: ["wx-1"])  // one SQL statement, however many IDs

    // What `timeline show` paints, read without opening the database...
    let snapshot = try SnapshotFile(path: store.snapshotFile.path).read()
    // ...and what changed in the database since (nothing, here).
    let changes = try store.reconcile(snapshot)
    precondition(changes.isEmpty)
    return try store.timeline(limit: 10).messages.map(\.id)  // newest first
}
// DOC-EXAMPLE-END
import Testing

/// The TimelineKit example of docs/internals.md, compiled and run, and held identical to the page.
@Suite struct LibraryDocExampleTests {
    @Test func theInternalsPageExampleRunsAsWritten() throws {
        let directory = TemporaryDirectory()
        #expect(try storeFetchedPosts(databasePath: directory.file("timeline.sqlite")) == ["wx-3", "wx-2", "wx-1"])
    }

    @Test func theInternalsPageShowsExactlyThisExample() throws {
        let page = try String(contentsOfFile: Fixtures.path("../docs/internals.md"), encoding: .utf8)
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let example = try #require(source.components(separatedBy: "(the same lines as the TimelineKit example of docs/internals.md)\n").last?
            .components(separatedBy: "// DOC-EXAMPLE-END").first)
        #expect(page.contains("```swift\n" + example + "```\n"))
    }
}
