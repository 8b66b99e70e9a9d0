import Foundation
import Testing
import TimelineKit

/// `post --image` (issue 36) at the command line: the refusals are said in words naming the
/// file and what to do, before anything is sent, never by the argument parser.
@Suite(.serialized) struct PicturePostCommandTests {
    @Test func refusalsNameTheFileAndSendNothing() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let picture = home.directory + "/cat.png"
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 4, 0, 0, 0, 3, 8, 6, 0, 0, 0]
        try Data(png).write(to: URL(fileURLWithPath: picture))
        let notAPicture = home.directory + "/notes.png"
        try Data("just words".utf8).write(to: URL(fileURLWithPath: notAPicture))

        // No --alt and no terminal: refused, saying how to give one or do without.
        let noAlt = try await home.timeline.runOffThePool(["post", "--image", picture, "Monday"])
        #expect(noAlt.status == 64, "\(noAlt.errors)")
        #expect(noAlt.errors.contains("cat.png") && noAlt.errors.contains("--alt TEXT") && noAlt.errors.contains("--no-alt"), "\(noAlt.errors)")
        #expect(!noAlt.errors.contains("Usage"), "\(noAlt.errors)")
        // More --alt than --image.
        let extra = try await home.timeline.runOffThePool(["post", "--image", picture, "--alt", "a", "--alt", "b", "Monday"])
        #expect(extra.status == 64 && extra.errors.contains("2 --alt for 1 --image"), "\(extra.errors)")
        // Not a picture, told from its bytes: named, exit 65.
        let words = try await home.timeline.runOffThePool(["post", "--image", notAPicture, "--alt", "x", "Monday"])
        #expect(words.status == 65, "\(words.errors)")
        #expect(words.errors.contains("notes.png") && words.errors.contains("not a PNG, JPEG, GIF or WebP"), "\(words.errors)")
        // A missing file: named, exit 66.
        let missing = try await home.timeline.runOffThePool(["post", "--image", "/nonexistent/dog.jpg", "--alt", "x", "Monday"])
        #expect(missing.status == 66 && missing.errors.contains("dog.jpg"), "\(missing.errors)")
        // Five pictures.
        let five = try await home.timeline.runOffThePool(["post", "--no-alt"] + Array(repeating: ["--image", picture], count: 5).joined() + ["Monday"])
        #expect(five.status == 64 && five.errors.contains("at most 4 pictures"), "\(five.errors)")
        #expect(try EditAndVoteCommandTests.sent(server, "POST", "/api/v1/statuses").isEmpty)
        #expect(try EditAndVoteCommandTests.sent(server, "POST", "/api/v2/media").isEmpty)
    }

    @Test func jsonSaysTheMediaIDsInTheOrderOfTheImagesAndNothingWithoutPictures() async throws {
        let server = try MastodonTestServer()
        let home = try SyncCommandTests.loggedIn(to: server)
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) + [0, 0, 0, 4, 0, 0, 0, 3, 8, 6, 0, 0, 0]
        let first = home.directory + "/first.png"
        let second = home.directory + "/second.png"
        try Data(png).write(to: URL(fileURLWithPath: first))
        try Data(png).write(to: URL(fileURLWithPath: second))

        let posted = try await home.timeline.runOffThePool(["post", "--json", "--image", first, "--alt", "one", "--image", second, "--alt", "two", "Monday"])
        #expect(posted.status == 0, "\(posted.errors)")
        let object = try #require(try JSONSerialization.jsonObject(with: Data(posted.output.utf8)) as? [String: Any], "\(posted.output)")
        #expect(object["media"] as? [String] == ["7001", "7002"], "\(posted.output)")
        let plain = try await home.timeline.runOffThePool(["post", "--json", "Tuesday"])
        #expect(plain.status == 0, "\(plain.errors)")
        let none = try #require(try JSONSerialization.jsonObject(with: Data(plain.output.utf8)) as? [String: Any], "\(plain.output)")
        #expect(none["media"] == nil && none["id"] != nil, "\(plain.output)")
    }
}
