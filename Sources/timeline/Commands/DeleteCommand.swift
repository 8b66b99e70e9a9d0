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

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give at least one message ID.") }
    }

    func run() throws {
        let store = try location.openStore(create: false)
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
