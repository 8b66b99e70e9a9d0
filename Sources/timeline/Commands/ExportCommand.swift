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
        abstract: "Write every user and message as JSON Lines (the import format).",
        discussion: """
            `timeline export | timeline --db other.sqlite import -` copies a timeline exactly, read \
            flags included.

            Examples:
              timeline export backup.jsonl
              timeline export | gzip > backup.jsonl.gz
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: ArgumentHelp("The file to write (created private, 0600), or - for standard output.", valueName: "file"), completion: .file())
    var file: String = "-"

    func run() throws {
        let store = try location.openStore(create: false)
        let exporter = JSONLinesExporter(store: store) { () throws(TimelineStoreError) in try store.allUsers() }
        if file == "-" {
            _ = try reportingErrors { try exporter.export(toFileDescriptor: STDOUT_FILENO) }
            return
        }
        let output: FileDescriptor
        do {
            output = try FileDescriptor.open(file, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, permissions: 0o600)
        } catch {
            Terminal.emitError("timeline: cannot create \(file): \(error)\n")
            throw ExitCode(ExitStatus.failure)
        }
        defer { output.close() }
        let summary = try reportingErrors { try exporter.export(toFileDescriptor: output.rawValue, name: file) }
        Terminal.emitError("Exported \(Counted(summary.users, "user")) and \(Counted(summary.messages, "message")) to \(file).\n")
    }
}
