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

            On a terminal it counts first and asks (`Remove 47,625 messages older than 40 days? \
            [y/N]`); anything but y or yes removes nothing (exit status 1). Scripts pass --yes: \
            when standard input is not a terminal, prune without --yes or --dry-run removes \
            nothing and exits with status 64. --json prints one object (dry_run, cutoff, \
            messages_removed, users_removed, unread_kept, freeable_bytes, bytes_before, \
            bytes_after).

            Examples:
              timeline prune --older-than 1y --dry-run
              timeline prune --older-than 90d --keep-unread
              timeline prune --older-than 1y --yes --json
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("Remove messages older than this: 90m, 12h, 30d, 2w, 1y.", valueName: "duration"))
    var olderThan: String

    @Flag(name: .long, help: "Keep unread messages however old.")
    var keepUnread = false

    @Flag(name: .long, help: "Only say what would be removed; change nothing.")
    var dryRun = false

    @Flag(name: [.customShort("y"), .long], help: "Remove without asking (needed when standard input is not a terminal).")
    var yes = false

    @Flag(name: .long, help: "Print one JSON object with the counts.")
    var json = false

    func validate() throws {
        if AgeLimit(olderThan) == nil {
            throw ValidationError("--older-than: '\(olderThan)' is not a duration; give \(AgeLimit.usage).")
        }
    }

    func run() throws {
        guard let age = AgeLimit(olderThan) else { throw ExitCode(ExitStatus.usage) }
        let store = try location.openStore(create: false)
        let cutoff = Date().addingTimeInterval(-Double(age.seconds))
        if !dryRun && !yes { try confirm(store: store, cutoff: cutoff, age: age) }
        let summary = try reportingErrors { try store.prune(olderThan: cutoff, keepUnread: keepUnread, dryRun: dryRun) }
        if json { return Terminal.emit(Self.json(summary) + "\n") }
        var line = "\(dryRun ? "Would remove" : "Removed") \(Counted(summary.messagesRemoved, "message")) and \(Counted(summary.usersRemoved, "user")) older than \(age.text) (before \(cutoff.formatted(.iso8601)))"
        if summary.notificationsRemoved > 0 { line += ", and \(Counted(summary.notificationsRemoved, "notification"))" }
        if keepUnread { line += "; \(dryRun ? "would keep" : "kept") \(Counted.grouped(summary.unreadKept)) unread" }
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

    /// Asks the person at the terminal before anything is removed, with the count a dry run
    /// gives; returns when the answer is yes (or nothing would be removed, so nothing to ask).
    /// A prune cannot be undone, so without a terminal to ask on it takes `--yes`.
    private func confirm(store: TimelineStore, cutoff: Date, age: AgeLimit) throws {
        guard StandardInput.isTerminal else {
            Terminal.emitError("timeline: prune removes messages for good and asks first, but standard input is not a terminal. Add --yes to prune without asking, or --dry-run to see what would go. Nothing was removed.\n")
            throw ExitCode(ExitStatus.usage)
        }
        let preview = try reportingErrors { try store.prune(olderThan: cutoff, keepUnread: keepUnread, dryRun: true) }
        guard preview.messagesRemoved > 0 || preview.notificationsRemoved > 0 else { return }
        var question = "Remove \(Counted(preview.messagesRemoved, "message")) older than \(age.text)"
        if preview.usersRemoved > 0 { question += " (and \(Counted(preview.usersRemoved, "user")) only they named)" }
        if preview.notificationsRemoved > 0 { question += " and \(Counted(preview.notificationsRemoved, "notification"))" }
        Terminal.emitError(question + "? [y/N] ")
        let answer = StandardInput.readLine()?.filter { !$0.isWhitespace }.lowercased()
        guard answer == "y" || answer == "yes" else {
            if answer == nil { Terminal.emitError("\n") }  // Ctrl-D left the cursor after the question
            Terminal.emitError("Nothing was removed.\n")
            throw ExitCode(ExitStatus.failure)
        }
    }

    private static func json(_ summary: PruneSummary) -> String {
        var object = JSONObjectWriter()
        object.add("dry_run", summary.isDryRun)
        object.add("cutoff", summary.cutoff.formatted(.iso8601))
        object.add("messages_removed", summary.messagesRemoved)
        object.add("users_removed", summary.usersRemoved)
        object.add("notifications_removed", summary.notificationsRemoved)
        object.add("unread_kept", summary.unreadKept)
        object.add("freeable_bytes", summary.freeableBytes)
        object.add("bytes_before", summary.maintenance?.bytesBefore)
        object.add("bytes_after", summary.maintenance?.bytesAfter)
        return object.finish()
    }

    static func megabytes(_ bytes: Int) -> String {
        let tenths = (bytes * 10 + (1 << 19)) >> 20
        return "\(tenths / 10).\(tenths % 10) MiB"
    }
}
