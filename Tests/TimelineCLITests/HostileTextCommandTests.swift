import Foundation
import Testing
import TimelineKit

/// What a hostile server or file can put in names and texts costs `timeline` no more than normal
/// data of the same size (issue 12: one display name of 50,000 regional indicators made every
/// `show` take 12 s). Costs are compared side by side in the same run, never against a clock, and
/// as CPU time, which a busy machine does not inflate the way it does a wall clock.
@Suite struct HostileTextCommandTests {
    /// How many times a normal paint's CPU time the hostile one may take. The bug this guards
    /// against cost 12 s against milliseconds (over 1,000 times); a quiet machine reads about 1.
    /// Measured by the wall clock, a paint of a few milliseconds on a machine busy with the rest of
    /// the suite read 5.0 and 5.6 in two of six fresh-clone CI runs on 2026-11-25; by CPU time it
    /// reads 0.96 to 1.06 with four busy loops on two cores.
    private static let limit = 3.0

    /// How many times more CPU time `show` takes on `hostile` than on `normal`: the fastest run of
    /// each, alternating, at least three rounds and up to nine while the ratio is over `limit`
    /// but within ten times it (a busy machine slows a run, never speeds one up, so the fastest
    /// is the truest; a cost that grows with the input is hundreds of times over, and stops early).
    private static func showRatio(_ hostile: Scenario, _ normal: Scenario, inTerminal: Bool, limit: Double) throws -> Double {
        let arguments = ["show", "--color", "never"]
        var fastest = (hostile: Double.infinity, normal: Double.infinity)
        var ratio = Double.infinity
        for round in 1...9 {
            for (scenario, isHostile) in [(normal, false), (hostile, true)] {
                let (status, seconds) = try scenario.timeline.cpuTime(arguments, inTerminal: inTerminal)
                #expect(status == 0, "\(arguments)")
                if isHostile { fastest.hostile = min(fastest.hostile, seconds) } else { fastest.normal = min(fastest.normal, seconds) }
            }
            ratio = fastest.hostile / fastest.normal
            if round >= 3, ratio < limit || ratio > 10 * limit { break }
        }
        return ratio
    }

    /// A timeline whose one user is named `name`, with one message, painted once so that the
    /// snapshot is current.
    private static func scenario(name: String) throws -> Scenario {
        let scenario = Scenario()
        let path = scenario.directory + "/feed.jsonl"
        try ImportLine.write([ImportLine.user(id: "u1", handle: "flags", name: name),
                              ImportLine.message(id: "m1", author: "u1", text: "hello", createdAt: 1_790_000_000_000)], to: path)
        let imported = try scenario.timeline.run(["import", path])
        #expect(imported.status == 0, "\(imported.errors)")
        return scenario
    }

    @Test func aDisplayNameOfFiftyThousandRegionalIndicatorsPaintsAsFastAsANormalName() throws {
        let flags = String(repeating: "\u{1F1E6}", count: 50_000)
        let hostile = try Self.scenario(name: flags)
        let normal = try Self.scenario(name: String(repeating: "Alice Example ", count: 14_000))
        // Imported, the name is cut to 100 characters: 99 flags and `…`.
        let shown = try hostile.timeline.run(["show", "--color", "never"]).output
        #expect(shown.contains(String(repeating: "\u{1F1E6}", count: 10)))
        #expect(shown.contains("…"))
        #expect(try hostile.sqlite("SELECT length(name) FROM users") == "199")

        for inTerminal in [false, true] {
            let ratio = try Self.showRatio(hostile, normal, inTerminal: inTerminal, limit: Self.limit)
            #expect(ratio < Self.limit, "in a terminal: \(inTerminal), \(ratio)× a normal paint")
        }

        // Written past the import (an older database, another program): the paint lays out only
        // what a header can show.
        try hostile.sqlite("UPDATE users SET name = replace(hex(zeroblob(50000)), '00', char(127462))")
        try normal.sqlite("UPDATE users SET name = replace(hex(zeroblob(14000)), '00', 'Alice Example ')")
        #expect(try hostile.sqlite("SELECT length(name) FROM users") == "50000")
        for scenario in [hostile, normal] {
            #expect(try scenario.timeline.run(["show"]).status == 0)  // rewrites the snapshot
        }
        for inTerminal in [false, true] {
            let ratio = try Self.showRatio(hostile, normal, inTerminal: inTerminal, limit: Self.limit)
            #expect(ratio < Self.limit, "stored past the import, in a terminal: \(inTerminal), \(ratio)× a normal paint")
        }
    }

    @Test func mastodonContentEndingInsideATagOrFullOfOpenTagsImportsAsTextAndQuickly() throws {
        func status(_ id: String, _ content: String) -> String {
            #"{"id":"\#(id)","created_at":"2026-01-01T00:00:00Z","account":{"id":"a1","acct":"alice"},"content":\#(ImportLine.json(content))}"#
        }
        let hostile = Scenario(), normal = Scenario()
        let hostilePath = hostile.directory + "/home.json", normalPath = normal.directory + "/home.json"
        try Data(("[" + [status("1", "a <"), status("2", "<p>x</p><"), status("3", String(repeating: "<a", count: 20_000))].joined(separator: ",") + "]").utf8)
            .write(to: URL(fileURLWithPath: hostilePath))
        try Data(("[" + [status("1", "a b"), status("2", "<p>x</p>"), status("3", String(repeating: "<p>a</p>", count: 5_000))].joined(separator: ",") + "]").utf8)
            .write(to: URL(fileURLWithPath: normalPath))

        let imported = try hostile.timeline.run(["import", "--format", "mastodon", hostilePath])
        #expect(imported.status == 0, "\(imported.errors)")
        let shown = try hostile.timeline.run(["show", "--color", "never"]).output
        #expect(shown.contains("  a <\n"))
        #expect(shown.contains("  x\n\n  <\n"))

        var best = (hostile: Double.infinity, normal: Double.infinity)
        for _ in 0..<3 {
            best.hostile = min(best.hostile, try hostile.timeline.cpuTime(["import", "--format", "mastodon", hostilePath], inTerminal: false).seconds)
            best.normal = min(best.normal, try normal.timeline.cpuTime(["import", "--format", "mastodon", normalPath], inTerminal: false).seconds)
        }
        #expect(best.hostile / best.normal < 3, "\(best.hostile / best.normal)× a normal import")
    }
}
