import Foundation
import Testing
@testable import TimelineKit

@Suite struct UserLimitsTests {
    private typealias F = ImportFixtures

    @Test func namesAndHandlesWithinTheLimitsAreKeptAsTheyAre() {
        let name = String(repeating: "👨‍👩‍👧", count: 40)  // 40 characters, 720 bytes
        let handle = String(repeating: "a", count: 30) + "@" + String(repeating: "b", count: 253)
        let user = User(id: "u1", handle: handle, name: name)
        #expect(UserLimits.applied(to: user) == user)
        #expect(UserLimits.cut(String(repeating: "é", count: 100), characters: 100, bytes: 1_000) == String(repeating: "é", count: 100))
    }

    @Test func aLongNameIsCutToOneHundredCharactersEndingInAnEllipsis() {
        let cut = UserLimits.cut(String(repeating: "🇯🇵", count: 25_000), characters: 100, bytes: 1_000)
        #expect(cut == String(repeating: "🇯🇵", count: 99) + "…")
        #expect(cut.count == 100)
        #expect(UserLimits.cut(String(repeating: "a", count: 101), characters: 100, bytes: 1_000) == String(repeating: "a", count: 99) + "…")
    }

    @Test func aNameOfLongCharactersIsCutToOneThousandBytes() {
        let family = "👨‍👩‍👧‍👦"  // 25 bytes
        let cut = UserLimits.cut(String(repeating: family, count: 90), characters: 100, bytes: 1_000)
        #expect(cut == String(repeating: family, count: 39) + "…")
        #expect(cut.utf8.count <= 1_000)
    }

    @Test func oneCharacterLongerThanTheLimitKeepsTheScalarsThatFit() {
        let letter = "a" + String(repeating: "\u{301}", count: 5_000)  // one character, 10,001 bytes
        let cut = UserLimits.cut(letter, characters: 100, bytes: 1_000)
        #expect(cut.utf8.count == 1_000)  // "a", 498 marks of 2 bytes, "…"
        #expect(cut.unicodeScalars.starts(with: "a\u{301}".unicodeScalars))
        #expect(cut.unicodeScalars.last == "…")
    }

    @Test func aLongHandleIsCutToThreeHundredBytes() {
        let user = UserLimits.applied(to: User(id: "u1", handle: String(repeating: "h", count: 100_000), name: "n"))
        #expect(user.handle == String(repeating: "h", count: 297) + "…")
        #expect(user.name == "n")
    }

    @Test func cuttingTwiceChangesNothing() {
        for text in [String(repeating: "🇯🇵", count: 500), String(repeating: "x", count: 5_000), "a" + String(repeating: "\u{301}", count: 5_000),
                     String(repeating: "👨‍👩‍👧‍👦", count: 90), String(repeating: "\u{600}", count: 2_000)] {
            let once = UserLimits.cut(text, characters: 100, bytes: 1_000)
            #expect(UserLimits.cut(once, characters: 100, bytes: 1_000) == once)
            #expect(once.utf8.count <= 1_000 && once.count <= 100)
        }
    }

    @Test func cuttingAHostileNameCostsWhatCuttingANormalOneCosts() {
        let flags = String(repeating: "🇯🇵", count: 50_000)
        let normal = String(repeating: "Alice Example ", count: 28_600)
        CostRatio.expect("50,000 flags") {
            _ = UserLimits.cut(flags, characters: 100, bytes: 1_000)
        } normal: {
            _ = UserLimits.cut(normal, characters: 100, bytes: 1_000)
        }
    }

    @Test func everyDecoderHoldsUsersToTheLimits() throws {
        let name = String(repeating: "\u{1F1E6}", count: 50_000)
        let handle = String(repeating: "h", count: 1_000)
        let expected = (name: String(repeating: "\u{1F1E6}", count: 198) + "…", handle: String(repeating: "h", count: 297) + "…")
        #expect(expected.name.count == 100)

        // JSON Lines, through the store.
        let directory = TemporaryDirectory()
        let store = try directory.store()
        try store.importText(#"{"type":"user","id":"u1","handle":"\#(handle)","name":"\#(name)"}"#, in: directory)
        let stored = try #require(try store.users(ids: ["u1"]).first)
        #expect(stored.name == expected.name && stored.handle == expected.handle)

        // Mastodon.
        let status = #"[{"id":"1","created_at":"2026-01-01T00:00:00Z","content":"<p>hi</p>","account":{"id":"a1","acct":"\#(handle)","display_name":"\#(name)"}}]"#
        let mastodon = try #require(try MastodonDecoder().decode(Array(status.utf8)).users.first)
        #expect(mastodon.name == expected.name && mastodon.handle == expected.handle)

        // Twitter v1.1 and v2.
        let tweet = #"[{"id_str":"1","created_at":"Wed Oct 10 20:19:24 +0000 2018","full_text":"hi","user":{"id_str":"9","screen_name":"\#(handle)","name":"\#(name)"}}]"#
        let v1 = try #require(try TwitterDecoder().decode(Array(tweet.utf8)).users.first)
        #expect(v1.name == expected.name && v1.handle == expected.handle)
        let page = #"{"data":[{"id":"1","author_id":"9","text":"hi","created_at":"2018-10-10T20:19:24.000Z"}],"includes":{"users":[{"id":"9","username":"\#(handle)","name":"\#(name)"}]}}"#
        let v2 = try #require(try TwitterDecoder().decode(Array(page.utf8)).users.first)
        #expect(v2.name == expected.name && v2.handle == expected.handle)
    }

    @Test func importingTheSameLongNameTwiceChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let line = #"{"type":"user","id":"u1","handle":"h","name":"\#(String(repeating: "é", count: 300))"}"#
        try store.importText(line, in: directory)
        let generation = try store.state().generation
        try store.importText(line, in: directory)
        #expect(try store.state().generation == generation)
    }
}
