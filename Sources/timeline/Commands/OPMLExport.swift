import ArgumentParser
import TimelineFeeds
import TimelineKit

/// `timeline export --format opml [FILE]`: the subscriptions as an OPML list
/// (`FeedSubscriptions.opmlDocument`), which any feed reader imports, and `timeline import
/// --format opml` reads back to the same feeds.
enum OPMLExport {
    static func run(file: String, location: LocationOptions) throws {
        let store = try location.openStore(create: false)
        let list = try reportingErrors { try FeedSubscriptions(store: store).opmlDocument() }
        let bytes = Array(list.xml().utf8)
        if file == "-" {
            try write(bytes, to: FileDescriptor.standardOutput, name: "<stdout>")
            return
        }
        let output = try ExportCommand.create(file)
        defer { output.close() }
        try write(bytes, to: output, name: file)
        Terminal.emitError("Exported \(Counted(list.subscriptions.count, "subscription")) to \(TerminalText.line(file)).\n")
    }

    private static func write(_ bytes: [UInt8], to output: FileDescriptor, name: String) throws {
        // withUnsafeBytes rethrows untyped errors (and a typed-throws closure there crashes Swift
        // 6.3.1's IR generation): the failure is carried out by hand, as JSONLinesExporter does.
        var failure: Errno?
        bytes.withUnsafeBytes { buffer in
            do throws(Errno) { try output.writeAll(buffer) } catch { failure = error }
        }
        if let failure {
            Terminal.emitError("timeline: cannot write \(TerminalText.line(name)): \(failure)\n")
            throw ExitCode(ExitStatus.failure)
        }
    }
}
