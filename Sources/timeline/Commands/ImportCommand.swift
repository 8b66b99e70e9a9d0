import ArgumentParser
import TimelineKit

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Add or update users and messages from a JSON Lines file.",
        discussion: """
            One JSON object per line (the format is in the README):
              {"type":"user","id":"u1","handle":"alice","name":"Alice Example"}
              {"type":"message","id":"m1","author":"u1","text":"hello","created_at":"2026-11-20T10:00:00Z"}

            The whole file is one transaction: a bad line stops the import with its file, line and \
            field, and nothing is written. IDs already stored are updated in place, so importing \
            the same file again changes nothing.

            Examples:
              timeline import timeline.jsonl
              my-fetcher | timeline import -
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: ArgumentHelp("The file to read, or - for standard input.", valueName: "file"))
    var file: String = "-"

    func run() throws {
        let store = try location.openStore(create: true)
        let showsProgress = Terminal.standardErrorIsTerminal
        var progressShown = false
        let summary = try reportingErrors {
            try JSONLinesImporter(store: store).importFile(atPath: file) { progress in
                // Only worth a line when the import takes a while: the callback comes at most every
                // 100 ms, and a small file is done before the first one.
                guard showsProgress, progress.lines > 0 else { return }
                var line = "\rimporting: \(progress.lines) lines"
                if let fraction = progress.fractionDone { line += " (\(Int(fraction * 100))%)" }
                Terminal.emitError(line)
                progressShown = true
            }
        }
        if progressShown { Terminal.emitError("\r\u{1b}[K") }
        Terminal.emit("Imported \(summary.lines) lines: \(summary.users) users (\(summary.newUsers) new), \(summary.messages) messages (\(summary.newMessages) new).\n")
    }
}
