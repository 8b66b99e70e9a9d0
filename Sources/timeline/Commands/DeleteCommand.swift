import ArgumentParser
import TimelineKit

struct DeleteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "delete",
        abstract: "Delete messages by ID.",
        discussion: """
            Unknown IDs are ignored; the count of deleted messages is printed.

            Example:
              timeline delete 113542871234567890
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "Message IDs.")
    var ids: [String]

    func validate() throws {
        if ids.isEmpty { throw ValidationError("Give at least one message ID.") }
    }

    func run() throws {
        let store = try location.openStore(create: false)
        let deleted = try reportingErrors { try store.deleteMessages(ids: ids) }
        Terminal.emit("Deleted \(deleted) message\(deleted == 1 ? "" : "s").\n")
    }
}
