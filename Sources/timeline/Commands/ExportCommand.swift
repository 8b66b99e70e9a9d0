import ArgumentParser
import TimelineKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every user and message as JSON Lines (the import format), or the feed subscriptions as OPML.",
        discussion: """
            `timeline export | timeline --db other.sqlite import -` copies a timeline exactly, read \
            flags included.

            --format opml writes the feed subscriptions instead, as an OPML list any feed reader \
            imports (each feed's title, URL and site); `timeline import --format opml` reads it back.

            Examples:
              timeline export backup.jsonl
              timeline export | gzip > backup.jsonl.gz
              timeline export --format opml subscriptions.opml
            """)

    /// What `export` writes.
    enum Format: String, CaseIterable, ExpressibleByArgument {
        case jsonl, opml
    }

    @OptionGroup var location: LocationOptions

    @Option(help: ArgumentHelp("What to write: jsonl, every user and message; or opml, the feed subscriptions.", valueName: "format"))
    var format: Format = .jsonl

    @Argument(help: ArgumentHelp("The file to write (created private, 0600), or - for standard output.", valueName: "file"), completion: .file())
    var file: String = "-"

    func run() throws {
        if format == .opml { return try OPMLExport.run(file: file, location: location) }
        let store = try location.openStore(create: false)
        let exporter = JSONLinesExporter(store: store) { () throws(TimelineStoreError) in try store.allUsers() }
        if file == "-" {
            _ = try reportingErrors { try exporter.export(toFileDescriptor: STDOUT_FILENO) }
            return
        }
        let output = try Self.create(file)
        defer { output.close() }
        let summary = try reportingErrors { try exporter.export(toFileDescriptor: output.rawValue, name: file) }
        Terminal.emitError("Exported \(Counted(summary.users, "user")) and \(Counted(summary.messages, "message")) to \(file).\n")
    }

    /// Creates (or empties) the export file `file`, private (0600): an export holds a whole
    /// timeline, or the list of what a person reads.
    static func create(_ file: String) throws -> FileDescriptor {
        do {
            return try FileDescriptor.open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o600)
        } catch {
            Terminal.emitError("timeline: cannot create \(file): \(error)\n")
            throw ExitCode(ExitStatus.failure)
        }
    }
}
