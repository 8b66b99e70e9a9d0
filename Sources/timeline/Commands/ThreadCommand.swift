import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

struct ThreadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "thread",
        abstract: "Show the conversation around a message: what it replies to, and its replies.",
        discussion: """
            The stored messages the message replies to, oldest first, then the message, then the \
            replies to it and to them, each indented one step deeper, each branch in the order it \
            was written. Content warnings are open: you asked for this conversation. Only what is \
            stored shows: `timeline sync` stores what your home timeline brings, and `timeline \
            import` of a Mastodon `/api/v1/statuses/ID/context` answer fills in the rest (with \
            --account for a synced account's server). A line says when the conversation goes on \
            above what is stored, or when replies were left out. --json prints one JSON line per \
            message, as `show --json` does, with its "depth".

            Examples:
              timeline thread mastodon.social/113542871234567890
              timeline thread 113542871234567890 --json | jq -r '.text'
              timeline thread https://mastodon.social/@alice/113542871234567890
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The message: its ID as `show --json` prints it, the server's own ID, or the post's web address.")
    var id: String

    @Option(name: [.customShort("n", allowingJoined: true), .customLong("limit")], help: "At most this many replies (default 1000).")
    var limit = 1_000

    @Flag(name: .long, help: "Print JSON Lines, as `show --json` does, each with its \"depth\".")
    var json = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if limit < 0 { throw ValidationError("-n/--limit cannot be negative.") }
        if let width = output.width, width < 20 { throw ValidationError("--width must be at least 20, not \(width).") }
    }

    /// How far replies are indented at most: deeper ones line up with the last step, so a long
    /// back-and-forth still has room for its text.
    static let deepestIndent = 8

    func run() throws {
        let store = try location.openStore(create: false)
        let thread: TimelineThread
        do throws(TimelineStoreError) {
            thread = try store.withMessageReferences([id]) { ids throws(TimelineStoreError) in
                try store.thread(around: ids[0], maximumReplies: limit)
            }
        } catch {
            if case .unknownMessages = error {
                Terminal.emitError("timeline: no stored message has the ID \"\(TerminalText.line(id))\" (a stored ID, the server's ID or the post's web address). `timeline show --json | jq -r .id` lists the IDs of the newest messages.\n")
                throw ExitCode(ExitStatus.dataError)
            }
            throw fail(error)
        }
        if json {
            for entry in thread.entries {
                let page = TimelinePage(messages: [entry.message], related: thread.page.related, users: thread.page.users,
                                        interactions: thread.page.interactions)
                let line = JSONLinesShowOutput.lines(for: page).dropLast(2)  // "}\n"
                Terminal.emit(line + ",\"depth\":\(entry.depth)}\n")
            }
            return
        }
        let onTerminal = Terminal.standardOutputIsTerminal
        let columns = output.style.columns(window: onTerminal ? Terminal.windowSize() : nil)
        let now = Date()
        var text = ""
        if let missing = thread.missingParentID {
            text += "↑ it replies to \(TerminalText.line(missing)), which is not stored\n\n"
        }
        var renderers: [Int: TimelineRenderer] = [:]
        for (index, entry) in thread.entries.enumerated() {
            let steps = min(entry.depth, Self.deepestIndent)
            let indent = String(repeating: "  ", count: steps)
            // One renderer per depth shown: each narrower by its indent.
            let renderer = renderers[steps] ?? output.style.renderer(
                columns: max(20, columns - indent.count), onTerminal: onTerminal, revealsContentWarnings: true)
            renderers[steps] = renderer
            let page = TimelinePage(messages: [entry.message], related: thread.page.related, users: thread.page.users,
                                    interactions: thread.page.interactions)
            let rendered = TimelineRenderer.text(of: renderer.render(page, now: now))
            if index > 0 { text += "\n" }
            for line in rendered.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
                text += line.isEmpty ? "\n" : indent + line + "\n"
            }
        }
        if thread.isCut {
            text += "\n… more replies are stored than shown (-n \(limit)); `timeline thread ID` of a reply shows its branch\n"
        }
        Terminal.emit(text)
    }
}
