import Foundation
import Testing
@testable import TimelineKit

/// How deep the JSON reader goes (issue 33, item 3): as deep as the answers timeline asks for,
/// and a deeper one is said as such, not as a server that may not speak its API.
@Suite struct JSONDepthTests {
    /// The levels of `value`: 1 for an object or array of scalars.
    private static func depth(_ value: Any) -> Int {
        if let object = value as? [String: Any] { return 1 + (object.values.map(depth).max() ?? 0) }
        if let array = value as? [Any] { return 1 + (array.map(depth).max() ?? 0) }
        return 0
    }

    /// `thread` asks `app.bsky.feed.getPostThread` for `parentHeight` parents: each a level
    /// deeper, each holding a post view. With the deepest post view of the recorded timelines
    /// (a record-with-media embed quoting a post with its own embeds, 13 levels) at every one,
    /// the answer is read whole.
    @Test func theDeepestBlueskyThreadTimelineAsksForIsRead() throws {
        let page = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Bluesky/getTimeline-alice.json"))))
        let posts = try #require((page as? [String: Any])?["feed"] as? [[String: Any]]).compactMap { $0["post"] as? [String: Any] }
        let deepest = try #require(posts.max { Self.depth($0) < Self.depth($1) })
        #expect(Self.depth(deepest) == 13)
        var node: [String: Any] = ["$type": "app.bsky.feed.defs#threadViewPost", "post": deepest]
        for _ in 0 ..< BlueskySync.threadParentHeight {
            node = ["$type": "app.bsky.feed.defs#threadViewPost", "post": deepest, "parent": node]
        }
        let answer = ["thread": node]
        let body = Array(try JSONSerialization.data(withJSONObject: answer))
        #expect(Self.depth(answer) == 2 + BlueskySync.threadParentHeight + 13)
        let levels = try ServerResponseReader.read(body: body, from: "https://bsky.example/xrpc/app.bsky.feed.getPostThread") { document throws(JSONLineFailure) -> Int in
            var levels = 0
            var parent = try JSONObjectView(document, path: "", expected: "an answer").object("thread", expected: "a node")
            while let node = parent {
                levels += 1
                parent = try node.object("parent", expected: "a node")
            }
            return levels
        }
        #expect(levels == BlueskySync.threadParentHeight + 1)
    }

    /// An answer deeper than the reader goes says so, in its own words: the reader's limit
    /// met, not a server that may not speak its API.
    @Test func anAnswerDeeperThanTheReaderGoesIsSaidAsSuch() throws {
        let url = "https://bsky.example/xrpc/app.bsky.feed.getPostThread"
        let body = Array((String(repeating: "[", count: 200) + String(repeating: "]", count: 200)).utf8)
        #expect(throws: ServerError.answerTooDeep(url: url, limit: JSONScanner.maximumDepth)) {
            try ServerResponseReader.read(body: body, from: url) { _ throws(JSONLineFailure) in () }
        }
        let said = ServerError.answerTooDeep(url: url, limit: JSONScanner.maximumDepth).description
        #expect(said.contains("nested more than 128 levels deep") && !said.contains("may not speak"), "\(said)")
    }
}
