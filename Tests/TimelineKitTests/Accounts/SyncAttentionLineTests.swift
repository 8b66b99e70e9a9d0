import Foundation
import Testing
@testable import TimelineKit

/// The line `show` ends with when an account's syncs need a person (issue 33: a server's 200
/// characters made it 381 columns): one line that fits the terminal, the server's words cut
/// with a mark, what is wrong and the command that fixes it whole.
@Suite struct SyncAttentionLineTests {
    static let wordy = AccountSyncStatus.Attention(account: "al@ex.social", summary: "syncs have failed since 2 hours ago",
                                                   reason: String(repeating: "Service Unavailable ", count: 10),
                                                   remedy: "timeline sync", isCredentials: false)

    @Test func theServersWordsAreCutToFitTheTerminal() {
        for columns in [80, 100, 200] {
            let line = Self.wordy.line(fitting: columns)
            #expect(DisplayWidth.of(line) <= columns, "\(columns): \(line)")
            #expect(line.hasPrefix("al@ex.social: syncs have failed since 2 hours ago (Service") && line.hasSuffix("…); run timeline sync"), "\(line)")
        }
        #expect(!Self.wordy.line.contains("…") && Self.wordy.line.components(separatedBy: "Service Unavailable").count == 11)
    }

    @Test func withNoRoomForTheWordsTheAccountsNameIsCutAndTheRestStaysWhole() {
        var long = Self.wordy
        long.account = "someone.with.a.long.handle@mastodon.example.social"
        let line = long.line(fitting: 80)
        #expect(DisplayWidth.of(line) <= 80 && line.contains("…: syncs have failed since 2 hours ago (…); run timeline sync"), "\(line)")
        // Narrower than what is wrong and its remedy: those stay whole, the command to copy too.
        #expect(long.line(fitting: 30).hasSuffix(": syncs have failed since 2 hours ago (…); run timeline sync"))
    }

    /// Several accounts in trouble are one line too, within 80 columns.
    @Test func severalAccountsAreOneLineWithinEightyColumns() throws {
        let directory = TemporaryDirectory()
        let file = SyncStatusFile(databasePath: directory.path + "/timeline.sqlite")
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        let lines = ["timeline sync status 1"] + (0 ..< 120).map { n in
            ["account\(n)@example.social", "timeline login mastodon example.social", "1799999990", "-", n % 2 == 0 ? "credentials" : "failing",
             "1799990000", String(repeating: "Service Unavailable ", count: 10)].joined(separator: "\t")
        }
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: file.path))
        let notice = try #require(file.notice(at: now, syncJustStarted: false, columns: 80))
        #expect(notice == "timeline: 120 accounts are not syncing: see `timeline accounts` (log in again)", "\(notice)")
        #expect(DisplayWidth.of(notice) <= 80)
    }
}
