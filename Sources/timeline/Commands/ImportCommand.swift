import ArgumentParser
import TimelineKit

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add or update users and messages from JSON Lines, Mastodon or Twitter API JSON; subscribe to an OPML list's feeds.",
        discussion: """
            Three formats, told from the content unless --format names one (a format other than \
            jsonl found that way is said in one line on standard error): jsonl, the project's own JSON Lines; \
            mastodon, Mastodon API responses (a timeline, one status, a thread's context, \
            accounts, the statuses notifications carry); twitter, Twitter API responses (v1.1 \
            tweets, v2 pages one per line, an archive's tweets.js). JSON Lines holds one user or \
            message object per line, e.g. {"type":"user","id":"u1","handle":"alice","name":"Alice"}; \
            docs/import-formats.md describes the format (the Debian package puts it in /usr/share/doc/timeline/docs).

            The whole file is one transaction: a bad line or field stops the import with its \
            file, line and field, and nothing is written. IDs already stored are updated in \
            place, so importing the same file again changes nothing.

            --account NAME reads a file saved from that account's network as `timeline sync` \
            stores it, so the file and the account's sync meet on the same messages instead of \
            storing each post twice: for a Mastodon account, Mastodon API JSON whose IDs are \
            stored under its server (server/ID; implies --format mastodon); for a Bluesky \
            account, Bluesky JSON (implies --format bluesky; its IDs are global).

            --json prints one object: format, lines (JSON Lines only, else null), users, \
            new_users, messages, new_messages.

            --format opml reads a feed reader's subscription list (OPML) and subscribes to \
            every outline with an xmlUrl, nested ones too, without fetching: `timeline sync` \
            fetches them. A feed already subscribed to is left as it is; one at a plain http \
            address beyond this machine is skipped with a line naming it. Exit status 65 for \
            a file that is not OPML (its line and what is wrong) or none of whose feeds can be \
            fetched; nothing is stored then. --json prints format, feeds, added, \
            already_subscribed, skipped.

            Examples:
              timeline import timeline.jsonl
              my-fetcher | timeline import -
              curl -s -H "Authorization: Bearer $MASTODON_TOKEN" \\
                "https://$MASTODON_HOST/api/v1/timelines/home?limit=40" | timeline import -
              timeline import --format twitter home_timeline.json
              timeline import --account alice@mastodon.social saved-home.json
              timeline import --format opml subscriptions.opml
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .customLong("format"),
            help: ArgumentHelp("The input's format: jsonl, mastodon, twitter or bluesky (default: told from the content), or opml (a feed reader's subscription list).",
                               valueName: "format"))
    var formatChoice: ImportFormatChoice?

    /// The format of users and messages asked for, if any.
    private var format: ImportFormat? { formatChoice?.messages }

    @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file"), completion: .file())
    var file: String = "-"

    @Option(name: .long, help: ArgumentHelp("A file saved from this account's network: store its IDs as sync does (implies its format: mastodon or bluesky).", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object with the counts.")
    var json = false

    func run() throws {
        if formatChoice == .opml {
            if let account {
                Terminal.emitError("timeline: --account reads files of \(TerminalText.line(account))'s network, not a subscription list: it cannot be combined with --format opml. Nothing was imported.\n")
                throw ExitCode(ExitStatus.usage)
            }
            return try OPMLImport.run(file: file, location: location, json: json)
        }
        // The account first: a name that is not there, or a format its files are not, must
        // fail before anything is created.
        let target = try account.map { name throws -> AccountImport in
            let account = try reportingErrors { try AccountStore.standard().account(named: name) }
            let target = try reportingErrors { try AccountImport(account: account) }
            if let format, format != target.format {
                Terminal.emitError("timeline: \(TerminalText.line(name)) is a \(account.network.displayName) account: --account reads its files as \(target.format.rawValue), so it cannot be combined with --format \(format.rawValue). Nothing was imported.\n")
                throw ExitCode(ExitStatus.usage)
            }
            return target
        }
        let chosenFormat = target?.format ?? format
        let namespace = target?.namespace
        let store = try location.openStore(create: true)
        // A person who ran `timeline import` alone would otherwise face a silent wait.
        if file == "-" && StandardInput.isTerminal {
            Terminal.emitError("timeline: reading \((chosenFormat ?? .jsonl).displayName) from the terminal; end with Ctrl-D\n")
        }
        let showsProgress = Terminal.standardErrorIsTerminal
        var progressShown = false
        var detectedFormat: ImportFormat?
        let summary = try reportingErrors {
            try TimelineImporter(store: store).importFile(atPath: file, format: chosenFormat, namespace: namespace, detected: { detection in
                detectedFormat = detection.format
                // JSON Lines is what `import` reads unless told otherwise: only a guess that
                // differs from it is worth a line.
                if detection.format != .jsonl {
                    Terminal.emitError("timeline: reading \(detection.summary) as \(detection.format.rawValue) (choose with --format)\n")
                }
            }) { progress in
                // Only worth a line when the import takes a while: the callback comes at most every
                // 100 ms, and a small file is done before the first one.
                guard showsProgress, progress.lines > 0 else { return }
                var line = "\rimporting: \(Counted(progress.lines, "line"))"
                if let fraction = progress.fractionDone { line += " (\(Int(fraction * 100))%)" }
                Terminal.emitControl(line)
                progressShown = true
            }
        }
        if progressShown { Terminal.emitControl("\r\u{1b}[K") }
        let readFormat = chosenFormat ?? detectedFormat ?? .jsonl
        if json {
            var object = JSONObjectWriter()
            object.add("format", readFormat.rawValue)
            object.add("lines", readFormat == .jsonl ? summary.lines : nil)
            object.add("users", summary.users)
            object.add("new_users", summary.newUsers)
            object.add("messages", summary.messages)
            object.add("new_messages", summary.newMessages)
            return Terminal.emit(object.finish() + "\n")
        }
        let counts = "\(Counted(summary.users, "user")) (\(Counted.grouped(summary.newUsers)) new), \(Counted(summary.messages, "message")) (\(Counted.grouped(summary.newMessages)) new)"
        if readFormat == .jsonl {
            Terminal.emit("Imported \(Counted(summary.lines, "line")): \(counts).\n")
        } else {
            Terminal.emit("Imported \(counts).\n")
        }
    }
}

extension ImportFormat: ExpressibleByArgument {}
