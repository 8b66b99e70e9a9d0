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
            was written. Content warnings are open: you asked for this conversation.

            The conversation is fetched from the message's server first, as the account whose \
            server it came from (Mastodon: the status's context; Bluesky: the post's thread, 10 \
            replies deep and 80 parents up), and stored, as a sync stores what it fetches (a \
            second fetch adds nothing twice; new posts are stored read, since you are reading \
            them); one line on standard error says how many posts it fetched and how many were \
            new. Every `thread` fetches again, so replies written since show. When the server \
            cannot be reached or refuses, a line says why, what is stored shows, and the exit \
            status is the failure's (75: try again later, 77: log in again); when no logged-in \
            account's server has the message (it was imported), a line says so and what is \
            stored shows, exit 0. --offline fetches nothing. At most 2000 posts are stored from one answer.

            A line says when the conversation goes on above what is stored, or when replies were \
            left out. --json prints one JSON line per message, as `show --json` does, with its \
            "depth".

            Examples:
              timeline thread bvm
              timeline thread mastodon.social/113542871234567890 --offline
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

    @Flag(name: .long, help: "Show what is stored; fetch nothing from the server.")
    var offline = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if limit < 0 { throw ValidationError("-n/--limit cannot be negative.") }
        if let width = output.width, width < 20 { throw ValidationError("--width must be at least 20, not \(width).") }
    }

    /// How far replies are indented at most: deeper ones line up with the last step, so a long
    /// back-and-forth still has room for its text.
    static let deepestIndent = 8

    func run() throws {
        // A hashtag's or a list's post (`rust:bkd`) is read from the database it is kept in.
        let source = SourceReference.parse(id)
        let store = try source.map { source throws(ExitCode) in
            try LocationOptions.openStore(at: try source.databasePath(beside: try location.location().databasePath), create: false)
        } ?? location.openStore(create: false)
        let reference = source?.reference ?? id
        // What is stored shows even when the server failed; the exit status then says so.
        let failure = offline ? nil : fetchFromServer(reference, into: store)
        // A conversation's post (`dm:bkd`, issue 37): read now, so read at the server too.
        if !offline, failure == nil, source?.isConversation == true { ConversationReadMark.mark(reference, in: store) }
        let thread: TimelineThread
        do throws(TimelineStoreError) {
            thread = try store.withMessageReferences([reference]) { ids throws(TimelineStoreError) in
                try store.thread(around: ids[0], maximumReplies: limit)
            }
        } catch {
            // An unknown reference is refused as every command that takes a message refuses it.
            if case .unknownMessages = error { throw MessageSessions.refusal(.unknownMessages(ids: [id], given: 1)) }
            throw fail(error)
        }
        if json {
            for entry in thread.entries {
                let page = TimelinePage(messages: [entry.message], related: thread.page.related, users: thread.page.users,
                                        interactions: thread.page.interactions)
                let line = JSONLinesShowOutput.lines(for: page).dropLast(2)  // "}\n"
                Terminal.emit(line + ",\"depth\":\(entry.depth)}\n")
            }
            if let failure { throw ExitCode(exitStatus(for: failure)) }
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
        if let failure { throw ExitCode(exitStatus(for: failure)) }
    }

    /// Fetches the conversation from the server of the message's account and stores it, saying
    /// in one line on standard error what it fetched, or why it fetched nothing (no account's
    /// server has the message, the server could not be reached): what is stored shows either way.
    /// Without any logged-in account there is no server to ask, and nothing is said. Answers the
    /// server's failure, for the exit status.
    private func fetchFromServer(_ reference: String, into store: TimelineStore) -> (any Error)? {
        // An unknown reference is said by the read that follows.
        guard let id = try? store.resolveMessageReferences([reference]).first else { return nil }
        let sessions: [any AccountSession]
        do {
            let accountStore = try AccountStore.standard()
            let accounts = try accountStore.hasAccountsFile ? accountStore.accounts() : []
            let transport = CurlTransport()
            sessions = try accounts.map { try accountStore.session(for: $0, transport: transport) }
        } catch {
            Terminal.emitError("timeline: the accounts could not be read (\(error)); showing what is stored.\n")
            return nil
        }
        guard !sessions.isEmpty else { return nil }
        guard let session = sessions.first(where: { $0.holds(messageID: id) }) else {
            Terminal.emitError("timeline: no logged-in account's server has \(QuotedValue.quoted(self.id)) (it was imported, or its account logged out); showing what is stored.\n")
            return nil
        }
        do {
            let fetched = try waitFor { () async throws -> ThreadFetch in
                try await session.fetchThread(around: id, limit: ThreadFetch.maximumPosts, in: store)
            }
            var line = "timeline: fetched \(Counted(fetched.received, "post")) from the server (\(Counted.grouped(fetched.new)) new)"
            if fetched.skipped > 0 { line += ", left out \(fetched.skipped) it could not read" }
            if fetched.isCut { line += "; the conversation is longer: the first \(Counted.grouped(ThreadFetch.maximumPosts)) were kept" }
            Terminal.emitError(line + ".\n")
            return nil
        } catch {
            Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): the conversation could not be fetched: \(error) Showing what is stored.\n")
            return error
        }
    }
}
