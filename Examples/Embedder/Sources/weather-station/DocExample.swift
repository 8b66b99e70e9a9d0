// The TimelineKit example of docs/internals.md, byte for byte (Examples/Embedder/check holds it so).
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
