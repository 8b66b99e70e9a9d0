import ArgumentParser
import TimelineFeeds
import TimelineKit
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// `timeline import --format opml FILE`: subscribes to every feed of a feed reader's OPML list
/// without fetching any (`FeedSubscriptions.add`), so that a list of two hundred feeds is
/// stored at once; the next `timeline sync` (the shell hook's too) fetches them, as they have
/// never been fetched.
///
/// A feed no fetch could reach (plain http beyond this machine) is skipped with a line naming
/// it rather than refusing the whole list: the others are worth having, and the line says what
/// to do. The status is 65 only when nothing of the list can be subscribed to, and for a file
/// that is not OPML (its line and what is wrong; nothing stored).
enum OPMLImport {
    static func run(file: String, location: LocationOptions, json: Bool) throws {
        let name = file == "-" ? "<stdin>" : file
        // A person who ran the command without a file would otherwise face a silent wait.
        if file == "-" && StandardInput.isTerminal {
            Terminal.emitError("timeline: reading an OPML list from the terminal; end with Ctrl-D\n")
        }
        let bytes = try read(file, name: name)
        let list: OPMLDocument
        do {
            list = try OPMLDocument(parsing: bytes, file: name)
        } catch {
            Terminal.emitError("timeline: \(TerminalText.line(error.description)) Nothing was imported.\n")
            throw ExitCode(ExitStatus.dataError)
        }
        let (addition, databasePath) = try reportingErrors {
            let store = try location.openStore(create: true)
            return (try FeedSubscriptions(store: store).add(list.subscriptions), store.path)
        }
        // The shell hook's background sync learns from this file that there are feeds to fetch.
        if !addition.added.isEmpty || !addition.alreadySubscribed.isEmpty {
            FeedsMarker.note(true, databasePath: databasePath)
        }
        for skipped in addition.skipped {
            let outline = skipped.outline
            let named = outline.title.map { "\"\(TerminalText.line($0))\" (\(TerminalText.line(outline.feedURL)))" }
                ?? TerminalText.line(outline.feedURL)
            let why = switch skipped.reason {
            case .insecureURL: "plain http is fetched only from this machine; subscribe to its https:// address if the site has one"
            default: "not an https:// URL"
            }
            Terminal.emitError("timeline: skipped \(named): \(why).\n")
        }
        if json {
            var object = JSONObjectWriter()
            object.add("format", "opml")
            object.add("feeds", addition.added.count + addition.alreadySubscribed.count + addition.skipped.count)
            object.add("added", addition.added.count)
            object.add("already_subscribed", addition.alreadySubscribed.count)
            object.add("skipped", addition.skipped.count)
            Terminal.emit(object.finish() + "\n")
        } else {
            var line = "\(Counted(addition.added.count, "subscription")) added, \(Counted.grouped(addition.alreadySubscribed.count)) already there"
            if !addition.skipped.isEmpty { line += ", \(Counted.grouped(addition.skipped.count)) skipped" }
            line += addition.added.isEmpty ? ".\n" : "; `timeline sync` fetches them.\n"
            Terminal.emit(line)
        }
        if addition.added.isEmpty && addition.alreadySubscribed.isEmpty {
            Terminal.emitError("timeline: no feed of \(TerminalText.line(name)) can be fetched; nothing was imported.\n")
            throw ExitCode(ExitStatus.dataError)
        }
    }

    /// The whole file, or standard input for `-`; at most one byte past the size a list may be,
    /// which the parser then refuses with the size.
    private static func read(_ file: String, name: String) throws -> [UInt8] {
        let limit = FeedLimits().maximumBytes + 1
        let input: FileDescriptor
        if file == "-" {
            input = .standardInput
        } else {
            do {
                input = try FileDescriptor.openForReading(file)
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(error.description))\n")
                throw ExitCode(ExitStatus.noInput)
            }
        }
        defer { if file != "-" { input.close() } }
        var bytes: [UInt8] = []
        do {
            while bytes.count < limit {
                let chunk = try input.read(atMost: min(65_536, limit - bytes.count))
                if chunk.isEmpty { break }
                bytes += chunk
            }
        } catch {
            Terminal.emitError("timeline: cannot read \(TerminalText.line(name)): \(error)\n")
            throw ExitCode(ExitStatus.noInput)
        }
        return bytes
    }
}
