import ArgumentParser
import TimelineKit

/// `timeline open REF` (issue 27): a message's web page, a link in its text, or one of its
/// media, opened in the person's browser (``Browser/open(_:around:)``), or printed.
struct OpenCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "open",
        abstract: "Open a message's web page, a link in it, or its media in your browser.",
        discussion: """
            The message is named by its short reference (as `show` paints it), stored ID, the \
            server's own ID or the post's web address; a repost opens the post it reposts. \
            Without --link or --media, the post's own web page opens; --link opens the Nth web \
            link of the post (default the first): the links its server gave with it (a \
            Mastodon post's anchors, a Bluesky post's links and link card), else, for a \
            message stored before timeline kept them or one without them, the links written \
            in its text. --media opens the Nth attachment's address (default the first). \
            --print prints the address and opens nothing.

            The browser: $BROWSER, read as xdg-open reads it (a colon-separated list of \
            commands, tried in turn; %s in one is replaced by the address, else the address is \
            added as its last argument), else xdg-open (open on macOS) when it is on PATH. It \
            runs in this terminal, and `timeline open` waits for it. With no browser at all, \
            the address is printed on standard output and a line on standard error says so \
            (exit 0).

            Addresses come from servers: only http and https addresses are opened or printed. \
            Anything else (file:, javascript:, an address holding spaces or control characters) \
            is refused (exit 65) and nothing is run. The address is always one argument of the \
            browser, never read by a shell. A message with no such address (a post written \
            here, an import without "url", fewer links or attachments than asked for) says so \
            (exit 1).

            Examples:
              timeline open bvm
              timeline open bvm --link 2
              timeline open https://mastodon.social/@alice/113542871234567890 --media
              timeline open bvm --print | wl-copy
              BROWSER='firefox --new-tab %s' timeline open bvm
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The message: its short reference, ID, the server's own ID, or the post's web address.")
    var reference: String

    @Argument(help: "With --link or --media: which one, counting from 1 (default 1).")
    var number: Int?

    @Flag(name: .long, help: "Open the Nth web link of the message (N after the message; default the first).")
    var link = false

    @Flag(name: .long, help: "Open the Nth attachment's address (N after the message; default the first).")
    var media = false

    @Flag(name: .long, help: "Print the address on standard output; open nothing.")
    var print = false

    func validate() throws {
        if link && media { throw ValidationError("--link and --media cannot be used together: say which one to open.") }
        if let number {
            if !link && !media { throw ValidationError("a number (\(number)) says which link or attachment: give --link or --media with it.") }
            if number < 1 { throw ValidationError("links and attachments count from 1, not \(number).") }
        }
    }

    func run() throws {
        // A hashtag's or a list's post (`rust:bkd`) is found in the database it is kept in.
        let (store, id) = try location.storesHolding([reference], verb: "open")[0]
        guard let stored = try reportingErrors({ try store.message(id: id) }) else {
            // Deleted between the two reads (a prune, another terminal).
            Terminal.emitError("timeline: \(QuotedValue.quoted(reference)) is no longer stored; nothing was opened.\n")
            throw ExitCode(ExitStatus.dataError)
        }
        // A repost is opened through the post it reposts, as `show` paints it.
        var message = stored
        if let original = stored.repostOfID, let reposted = try reportingErrors({ try store.message(id: original) }) {
            message = reposted
        }
        let named = MessageSessions.name(of: message.id, in: store)
        let url = try address(of: message, fallback: stored, named: named)
        guard Browser.isWebAddress(url) else {
            Terminal.emitError("timeline: \(named): \(QuotedValue.quoted(url)) is not a web address (only http and https ones are opened, and none holding spaces or control characters); nothing was opened.\n")
            throw ExitCode(ExitStatus.dataError)
        }
        if print {
            Terminal.emit(TerminalText.line(url) + "\n")
            return
        }
        switch Browser.open(url) {
        case let .opened(with: name):
            Terminal.emit("Opened \(TerminalText.line(url)) with \(name).\n")
        case let .failed(reason):
            Terminal.emit(TerminalText.line(url) + "\n")
            Terminal.emitError("timeline: \(reason), so \(named) was not opened; its address is printed above.\n")
            throw ExitCode(ExitStatus.failure)
        case .noBrowser:
            Terminal.emit(TerminalText.line(url) + "\n")
            Terminal.emitError("timeline: no browser to open it with ($BROWSER is not set or names nothing installed, and \(Browser.systemOpener) is not on PATH): its address is printed.\n")
        }
    }

    /// The address asked for: the post's own (the repost's when the original has none), its Nth
    /// link or its Nth attachment's; exit 1 saying what is missing.
    private func address(of message: Message, fallback: Message, named: String) throws(ExitCode) -> String {
        let wanted = number ?? 1
        func missing(_ what: String) -> ExitCode {
            Terminal.emitError("timeline: \(named) \(what); nothing was opened.\n")
            return ExitCode(ExitStatus.failure)
        }
        if link {
            let links = message.webLinks
            guard wanted <= links.count else {
                throw missing(links.isEmpty ? "has no web link" : "has \(Counted(links.count, "web link")), not \(wanted)")
            }
            return links[wanted - 1]
        }
        if media {
            let attachments = message.attachments
            guard wanted <= attachments.count else {
                throw missing(attachments.isEmpty ? "has no media" : "has \(Counted(attachments.count, "attachment")), not \(wanted)")
            }
            guard let url = attachments[wanted - 1].url else { throw missing("has no address for attachment \(wanted)") }
            return url
        }
        guard let url = message.url ?? fallback.url else {
            throw missing("has no web address (it was written here, or imported without one); --link or --media opens what it links to")
        }
        return url
    }
}
