import Foundation
import Testing

/// Every command that takes message IDs treats one that matches nothing as an error: status 65,
/// the IDs named (quoted, neutralised), and nothing changed, not even for the IDs that did
/// match (issue 15: `timeline delete nope` said `Deleted 0 messages.` and exited 0).
@Suite struct UnknownIDCommandTests {
    static let known = "117626012958762273"

    static func state(_ scenario: Scenario) throws -> String {
        try scenario.sqlite("SELECT message_count, unread_count, generation FROM timeline_state")
    }

    @Test func deletingAnUnknownIDIsAnErrorNamingIt() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let before = try Self.state(scenario)
        let result = try scenario.timeline.run(["delete", "nope"])
        #expect(result.status == 65)
        #expect(result.output.isEmpty)
        #expect(result.errors.hasPrefix(#"timeline: No message has the ID "nope". Nothing was changed"#), "\(result.errors)")
        #expect(try Self.state(scenario) == before)
    }

    @Test func oneUnknownIDAmongKnownOnesChangesNothingAtAll() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let before = try Self.state(scenario)
        let unread = try scenario.sqlite("SELECT id FROM messages WHERE seq IN (SELECT seq FROM unread_messages) ORDER BY id LIMIT 1")
        for arguments in [["delete", Self.known, "nope"], ["mark-read", unread, "nope"], ["mark-read", "--unread", Self.known, "nope"]] {
            let result = try scenario.timeline.run(arguments)
            #expect(result.status == 65, "\(arguments)")
            #expect(result.errors.contains(#"Of the 2 IDs given, 1 matches no message: "nope". Nothing was changed"#), "\(result.errors)")
            #expect(try Self.state(scenario) == before, "\(arguments)")
        }
    }

    @Test func anIDsFileWithUnknownIDsChangesNothingAndCountsThem() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let before = try Self.state(scenario)
        let ids = try scenario.sqlite("SELECT id FROM messages ORDER BY id LIMIT 100").split(separator: "\n").map(String.init)
        let file = scenario.directory + "/ids.txt"
        let unknown = (1...7).map { "missing-\($0)" }
        try ((ids + unknown).joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        for input in [file, "-"] {
            let result = try scenario.timeline.run(["mark-read", "--ids-file", input],
                                                   input: input == "-" ? FileManager.default.contents(atPath: file) : nil)
            #expect(result.status == 65)
            #expect(result.errors.contains(#"Of the 107 IDs given, 7 match no message: "missing-1", "missing-2", "missing-3", "missing-4", "missing-5" and 2 more."#),
                    "\(result.errors)")
            #expect(try Self.state(scenario) == before)
        }
    }

    @Test func anUnknownIDIsQuotedWithItsEscapesNeutralised() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let hostile = "x\u{1B}]0;owned\u{7}\u{1B}[2J\u{202E}"
        for command in ["delete", "mark-read"] {
            let result = try scenario.timeline.run([command, hostile])
            #expect(result.status == 65)
            #expect(result.errors.contains(#""x\u001b]0;owned\u0007\u001b[2J\u202e""#), "\(result.errors)")
            #expect(!result.errors.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x202E })
        }
    }

    /// Issue 33: an unknown reference of 131,000 characters was printed back whole by every
    /// command that takes a message but `delete`; input is quoted one way in every message: in
    /// quotes, escaped, cut at 80 characters with a mark.
    @Test func anUnknownReferenceIsQuotedCutToEightyCharactersByEveryCommand() throws {
        let scenario = Scenario()
        try scenario.importSample()
        let long = String(repeating: "x", count: 131_000)
        let quoted = "\"" + String(repeating: "x", count: 80) + "\"…"
        for arguments in [["favourite", long], ["boost", long], ["bookmark", long], ["open", long], ["thread", long],
                          ["vote", long, "1"], ["edit", long, "new text"], ["delete", long], ["mark-read", long], ["search", long]] {
            let result = try scenario.timeline.run(arguments)
            #expect(result.status != 0, "\(arguments[0])")
            #expect(result.errors.utf8.count < 400 && result.errors.contains(quoted), "\(arguments[0]): \(result.errors.prefix(300))")
        }
    }

    @Test func knownIDsAreChangedAndCountedInWords() throws {
        let scenario = Scenario()
        try scenario.importSample()
        #expect(try scenario.timeline.run(["mark-read", "--unread", Self.known]).output == "Marked 1 message unread.\n")
        #expect(try scenario.timeline.run(["mark-read", Self.known, Self.known]).output == "Marked 1 message read.\n")
        #expect(try scenario.timeline.run(["delete", Self.known]).output == "Deleted 1 message.\n")
    }
}
