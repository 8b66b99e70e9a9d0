#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// An empty file beside the database, `timeline.sqlite.has-feeds`, that exists while the
/// timeline has subscriptions: what tells the shell hook's `show` that a setup without accounts
/// still has something to sync, with one `stat` and without opening the database or touching
/// the feed module (`BackgroundSyncStart`).
///
/// `subscribe` and every `sync` make it agree with the subscriptions (a `sync` sees them all);
/// `unsubscribe` removes it with the last one. A subscription made by another program shows up
/// at the next foreground `sync`.
enum FeedsMarker {
    static func path(databasePath: String) -> String { databasePath + ".has-feeds" }

    /// Whether the timeline at `databasePath` has subscriptions, as last noted.
    static func exists(databasePath: String) -> Bool {
        FileManager.default.fileExists(atPath: path(databasePath: databasePath))
    }

    /// Notes whether the timeline has subscriptions. Failing to is harmless (the next `sync`
    /// notes it again), so it is not reported.
    static func note(_ hasFeeds: Bool, databasePath: String) {
        let path = path(databasePath: databasePath)
        if hasFeeds {
            if !FileManager.default.fileExists(atPath: path) {
                _ = FileManager.default.createFile(atPath: path, contents: Data())
            }
        } else {
            try? FileManager.default.removeItem(atPath: path)
        }
    }
}
