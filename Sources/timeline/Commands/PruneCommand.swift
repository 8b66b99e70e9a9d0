import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

struct PruneCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "prune",
        abstract: "Remove old messages, and the users only they referred to.",
        discussion: """
            Removes the messages created more than DURATION ago, in one transaction, then gives \
            the freed space back to the file system; the snapshot follows. Old messages that a \
            newer message reposts or quotes stay, and so do users a remaining message names \
            (as author, or as the user it replies to) and users no message ever named. Replies \
            and reposts whose originals are removed stay.

            DURATION is a whole number and a unit: m (minutes), h (hours), d (days), w (weeks), \
            y (365 days).

            Examples:
              timeline prune --older-than 1y --dry-run
              timeline prune --older-than 90d --keep-unread
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("Remove messages older than this: 90m, 12h, 30d, 2w, 1y.", valueName: "duration"))
    var olderThan: String

    @Flag(name: .long, help: "Keep unread messages however old.")
    var keepUnread = false

    @Flag(name: .long, help: "Only say what would be removed; change nothing.")
    var dryRun = false

    func validate() throws {
        if AgeLimit(olderThan) == nil {
            throw ValidationError("--older-than: '\(olderThan)' is not a duration; give \(AgeLimit.usage).")
        }
    }

    func run() throws {
        guard let age = AgeLimit(olderThan) else { throw ExitCode(ExitStatus.usage) }
        let store = try location.openStore(create: false)
        let cutoff = Date().addingTimeInterval(-Double(age.seconds))
        let summary = try reportingErrors { try store.prune(olderThan: cutoff, keepUnread: keepUnread, dryRun: dryRun) }
        let messages = "\(summary.messagesRemoved) message\(summary.messagesRemoved == 1 ? "" : "s")"
        let users = "\(summary.usersRemoved) user\(summary.usersRemoved == 1 ? "" : "s")"
        var line = "\(dryRun ? "Would remove" : "Removed") \(messages) and \(users) older than \(age.text) (before \(cutoff.formatted(.iso8601)))"
        if keepUnread { line += "; \(dryRun ? "would keep" : "kept") \(summary.unreadKept) unread" }
        line += "."
        if dryRun {
            line += " About \(Self.megabytes(summary.freeableBytes)) would be freed. Nothing was changed."
        } else if let maintenance = summary.maintenance {
            line += " The database and its WAL went from \(Self.megabytes(maintenance.bytesBefore)) to \(Self.megabytes(maintenance.bytesAfter))."
            if maintenance.pagesReleased == 0, summary.freeableBytes > 0 {
                line += " \(Self.megabytes(summary.freeableBytes)) of free space stays inside the file until `timeline vacuum`."
            }
        }
        Terminal.emit(line + "\n")
    }

    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
