import Foundation
import Testing
@testable import TimelineKit

/// The file a hashtag's or a list's timeline is kept in (issue 33, item 2): bounded whatever
/// the tag, the names short tags always had unchanged, a database under a long tag's former
/// name still found.
@Suite struct SourceDatabaseNameTests {
    @Test func aShortTagKeepsTheNameItAlwaysHad() throws {
        #expect(SourceDatabaseName.tag("Rust").key == "tag-rust")
        #expect(SourceDatabaseName.tag("天気").key == "tag-%E5%A4%A9%E6%B0%97")
        #expect(SourceDatabaseName.list("42", account: "alice@example.social").key == "list-alice%40example%2Esocial%2F42")
        #expect(try SourceDatabaseName.tag("rust").path(beside: "/data/timeline.sqlite") == "/data/timeline.tag-rust.sqlite")
    }

    @Test func aLongTagsNameIsBoundedAndKeepsAReadableStartAndADigest() throws {
        // 100 letters of 4 bytes each: 1,200 bytes written out.
        let longest = String(repeating: "\u{20000}", count: 100)
        for tag in ["東京オリンピック開会式を見ながら皆で応援しよう頑張れ日本代表", String(repeating: "ש", count: 40), longest] {
            let key = SourceDatabaseName.tag(tag).key
            #expect(key.utf8.count <= SourceDatabaseName.maximumKeyBytes, "\(key)")
            #expect(key.hasPrefix("tag-" + String(SourceDatabaseName.escaped(tag).prefix(9))), "\(key)")
            #expect(key.split(separator: "-").last?.count == 16, "\(key)")
        }
        // Two tags alike but for their ends are kept apart; a tag's case is not.
        let a = String(repeating: "日", count: 40) + "a", b = String(repeating: "日", count: 40) + "b"
        #expect(SourceDatabaseName.tag(a).key != SourceDatabaseName.tag(b).key)
        #expect(SourceDatabaseName.tag(a).key == SourceDatabaseName.tag(a.uppercased()).key)
        // A list's keeps its end, which its painted reference names.
        let list = SourceDatabaseName.list("at://did:web:" + String(repeating: "x", count: 120) + "/app.bsky.graph.list/3kabc", account: "me.bsky.social")
        #expect(list.key.utf8.count <= SourceDatabaseName.maximumKeyBytes && list.key.hasSuffix("%2F3kabc"), "\(list.key)")
        // Whatever the tag, every file of the database fits beside a main database of the longest name.
        let main = "/data/" + String(repeating: "t", count: SourceDatabaseName.longestMainName - ".sqlite".count) + ".sqlite"
        let path = try SourceDatabaseName.tag(longest).path(beside: main)
        #expect(path.split(separator: "/").last!.utf8.count + "-journal".count <= 255)
    }

    @Test func aDatabaseKeptUnderALongTagsFormerNameIsStillFound() throws {
        let directory = TemporaryDirectory()
        let main = directory.path + "/timeline.sqlite"
        let tag = "日本代表の皆さん頑張ってください応援してます"
        let name = SourceDatabaseName.tag(tag)
        let former = directory.path + "/timeline.tag-" + SourceDatabaseName.escaped(tag) + ".sqlite"
        #expect(try name.path(beside: main) != former)
        _ = FileManager.default.createFile(atPath: former, contents: Data())
        #expect(try name.path(beside: main) == former)
        // Once a database has the new name, that one is the tag's.
        let new = SourceDatabaseName.path(beside: main, key: name.key)
        _ = FileManager.default.createFile(atPath: new, contents: Data())
        #expect(try name.path(beside: main) == new)
    }

    @Test func aMainDatabaseNameThatLeavesNoRoomIsRefused() throws {
        let main = "/data/" + String(repeating: "t", count: 235) + ".sqlite"
        #expect(throws: SourceDatabaseNameError.self) { try SourceDatabaseName.tag("rust").path(beside: main) }
    }
}
