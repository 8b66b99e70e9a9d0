import Foundation
import Testing

/// `--json` on every command a script drives, and one naming style in all of timeline's JSON:
/// snake_case (issue 15; `snapshot --dump` used camelCase).
@Suite struct JSONOutputCommandTests {
    static func object(_ text: String) throws -> [String: Any] {
        #expect(text.hasSuffix("}\n") && text.filter { $0 == "\n" }.count == 1, "one object on one line: \(text)")
        return try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any], "\(text)")
    }

    /// Every key of `value`, at any depth.
    static func keys(of value: Any) -> [String] {
        switch value {
        case let object as [String: Any]: object.keys + object.values.flatMap(keys(of:))
        case let array as [Any]: array.flatMap(keys(of:))
        default: []
        }
    }

    static func isSnakeCase(_ key: String) -> Bool {
        !key.isEmpty && key.allSatisfy { $0.isASCII && ($0.isLowercase || $0.isNumber || $0 == "_") }
    }

    @Test func importPostMarkReadDeleteAndPrunePrintOneSnakeCaseObject() throws {
        let scenario = Scenario()
        let imported = try scenario.timeline.run(["import", "--json", Scenario.sampleTimeline])
        #expect(imported.status == 0)
        let counts = try Self.object(imported.output)
        #expect(counts["format"] as? String == "jsonl")
        #expect(counts["lines"] as? Int == 374)
        #expect(counts["users"] as? Int == 37)
        #expect(counts["new_users"] as? Int == 37)
        #expect(counts["messages"] as? Int == 337)
        #expect(counts["new_messages"] as? Int == 337)

        let posted = try Self.object(try scenario.timeline.run(["post", "--json", "--as", "mika", "hello"]).output)
        let id = try #require(posted["id"] as? String)
        #expect(posted["author"] as? String == "109301442871003451")
        #expect(posted["handle"] as? String == "mika")
        #expect(posted["created_at"] as? String != nil)

        let unread = try Self.object(try scenario.timeline.run(["mark-read", "--json", "--unread", id]).output)
        #expect(unread["changed"] as? Int == 1)
        #expect(unread["read"] as? Bool == false)
        let all = try Self.object(try scenario.timeline.run(["mark-read", "--json", "--all"]).output)
        #expect(all["changed"] as? Int == 217)
        #expect(all["read"] as? Bool == true)

        let deleted = try Self.object(try scenario.timeline.run(["delete", "--json", id]).output)
        #expect(deleted["deleted"] as? Int == 1)

        for object in [counts, posted, unread, all, deleted] {
            let bad = Self.keys(of: object).filter { !Self.isSnakeCase($0) }
            #expect(bad.isEmpty, "\(bad)")
        }
    }

    @Test func pruneReportsItsCountsAsJSONWithAndWithoutADryRun() throws {
        let scenario = Scenario()
        try MaintenanceCommandTests.importTimeline(scenario)
        let dryRun = try Self.object(try scenario.timeline.run(["prune", "--older-than", "30d", "--dry-run", "--json"]).output)
        #expect(dryRun["dry_run"] as? Bool == true)
        #expect(dryRun["messages_removed"] as? Int == 21)
        #expect(dryRun["users_removed"] as? Int == 1)
        #expect(dryRun["unread_kept"] as? Int == 0)
        #expect(dryRun["freeable_bytes"] as? Int != nil)
        #expect(dryRun["cutoff"] as? String != nil)
        #expect(dryRun["bytes_before"] is NSNull)
        #expect(dryRun["bytes_after"] is NSNull)
        let pruned = try Self.object(try scenario.timeline.run(["prune", "--older-than", "30d", "--yes", "--json"]).output)
        #expect(pruned["dry_run"] as? Bool == false)
        #expect(pruned["messages_removed"] as? Int == 21)
        #expect(pruned["bytes_before"] as? Int != nil)
        #expect(pruned["bytes_after"] as? Int != nil)
        #expect(try scenario.sqlite("SELECT count(*) FROM messages") == "5")
        for object in [dryRun, pruned] {
            let bad = Self.keys(of: object).filter { !Self.isSnakeCase($0) }
            #expect(bad.isEmpty, "\(bad)")
        }
    }

    @Test func aFormatOtherThanJSONLinesHasNoLineCount() throws {
        let scenario = Scenario()
        let result = try scenario.timeline.run(["import", "--json", "--format", "mastodon", "-"], input: Data("[]".utf8))
        #expect(result.status == 0, "\(result.errors)")
        let counts = try Self.object(result.output)
        #expect(counts["format"] as? String == "mastodon")
        #expect(counts["lines"] is NSNull)
    }

    @Test func theSnapshotDumpUsesSnakeCaseKeysThroughout() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let dump = try scenario.timeline.run(["snapshot", "--dump"])
        #expect(dump.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dump.output.utf8)) as? [String: Any])
        let keys = Set(Self.keys(of: object))
        #expect(keys.isSuperset(of: ["format_version", "built_at", "database_id", "message_count", "author_id", "like_count", "is_read"]),
                "\(keys.sorted())")
        let bad = keys.filter { !Self.isSnakeCase($0) }
        #expect(bad.isEmpty, "\(bad.sorted())")
    }
}
