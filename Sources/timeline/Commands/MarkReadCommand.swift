import ArgumentParser
import TimelineKit

struct MarkReadCommand: WordListCommand {
    static let configuration = CommandConfiguration(
        commandName: "mark-read",
        abstract: "Mark messages read (or unread), by ID or all at once.",
        discussion: """
            However many IDs you give, this is one SQL statement: nothing is loaded. All or \
            nothing: when any ID matches no message, nothing is marked, the IDs that matched \
            nothing are named, and the exit status is 65. --json prints {"changed": N, "read": \
            true|false, "markers_set": N}.

            Messages of an account (`timeline login`) marked read also move that account's read \
            marker on its server at once, so your phone opens where you stopped; offline, or with \
            --offline, the next `timeline sync` does it. Servers without read markers (Takahē) \
            keep no read position: there, what you mark is read on this computer only.

            Examples:
              timeline mark-read --all
              timeline mark-read 113542871234567890 113542871234567891
              timeline show --json | jq -r .id | timeline mark-read --ids-file -
            """)

    @OptionGroup var location: LocationOptions

    @Flag(name: .long, help: "Mark every message read.")
    var all = false

    @Flag(name: .long, help: "Mark the given messages unread instead.")
    var unread = false

    @Option(name: .long, help: ArgumentHelp("Read IDs from a file, one per line (- for standard input).", valueName: "file"), completion: .file())
    var idsFile: String?

    @Argument(help: "Messages: stored IDs (as `show --json` prints them), servers' own IDs or posts' web addresses.")
    var ids: [String] = []

    @Flag(name: .long, help: "Print one JSON object: {\"changed\": N, \"read\": true|false, \"markers_set\": N}.")
    var json = false

    @Flag(name: .long, help: "Do not set your accounts' read markers on their servers now (the next sync does).")
    var offline = false

    func validate() throws {
        if all && (!ids.isEmpty || idsFile != nil) { throw ValidationError("--all cannot be combined with IDs.") }
        if all && unread { throw ValidationError("--all marks everything read; --unread needs IDs.") }
        if !all && ids.isEmpty && idsFile == nil { throw ValidationError("Give message IDs, --ids-file, or --all.") }
    }

    func run() throws {
        let store = try location.openStore(create: false)
        var ids = ids
        if let idsFile {
            ids += try reportingErrors { try LineReader.lines(of: idsFile) }
        }
        let given = ids
        let changed = try reportingErrors {
            all ? try store.markAllRead() : try store.withMessageReferences(given) { resolved throws(TimelineStoreError) in
                ids = resolved  // what the server's marker is then set from
                return try store.markRead(ids: resolved, read: !unread, unknownIDs: .refuse)
            }
        }
        // A marker only moves forward: marking unread has nothing to tell a server.
        let pushes = offline || unread || changed == 0 ? [] : ReadMarkerPush.push(for: all ? nil : ids, store: store)
        for push in pushes {
            if push.lacksMarkers == true {
                Terminal.emitError("timeline: \(TerminalText.line(push.account)): this server has no \(ServerFeature.markers.name): marked read on this computer only. (Said once.)\n")
            }
            if let failure = push.failure {
                Terminal.emitError("timeline: \(TerminalText.line(push.account)): the server's read marker was not set now (\(failure)); the next `timeline sync` sets it.\n")
            }
        }
        if json {
            var object = JSONObjectWriter()
            object.add("changed", changed)
            object.add("read", !unread)
            object.add("markers_set", pushes.filter { $0.markerSet != nil }.count)
            Terminal.emit(object.finish() + "\n")
        } else {
            Terminal.emit("Marked \(Counted(changed, "message")) \(unread ? "unread" : "read").\n")
        }
    }
}

extension MarkReadCommand {
    var words: [String] {
        get { ids }
        set { ids = newValue }
    }
}
