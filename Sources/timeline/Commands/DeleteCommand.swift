import ArgumentParser
import TimelineKit

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete messages by ID.",
        discussion: """
            All or nothing: when any ID matches no message, nothing is deleted, the IDs that \
            matched nothing are named, and the exit status is 65. --json prints \
            {"deleted": N}.

            Example:
              timeline delete 113542871234567890
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "Message IDs.")
    var ids: [String]

    @Flag(name: .long, help: "Print one JSON object: {\"deleted\": N}.")
    var json = false

    var request: Request { Request(db: location.db, ids: ids, json: json) }

    func validate() throws { try request.validate() }

    func run() throws { try request.run() }

    /// What `delete` was asked, read by ArgumentParser or by hand (`QuickCommand`).
    struct Request: QuickRequest {
        var db: String?
        var ids: [String]
        var json = false

        static let options: Set<String> = []
        static let flags: Set<String> = ["--json"]

        init(db: String?, ids: [String], json: Bool) {
            (self.db, self.ids, self.json) = (db, ids, json)
        }

        init?(_ arguments: PlainArguments) {
            self.init(db: arguments.value("--db"), ids: arguments.positionals, json: arguments.flag("--json"))
            if (try? validate()) == nil { return nil }
        }

        /// Refuses what cannot be done, for ArgumentParser to report.
        func validate() throws(ValidationError) {
            if ids.isEmpty { throw ValidationError("Give at least one message ID.") }
        }

        func run() throws(ExitCode) {
            let store = try LocationOptions.openStore(db: db, create: false)
            let deleted = try reportingErrors { try store.deleteMessages(ids: ids, unknownIDs: .refuse) }
            if json {
                var object = JSONObjectWriter()
                object.add("deleted", deleted)
                Terminal.emit(object.finish() + "\n")
            } else {
                Terminal.emit("Deleted \(Counted(deleted, "message")).\n")
            }
        }
    }
}
