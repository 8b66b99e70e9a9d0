import ArgumentParser
import TimelineKit

struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Add a message written here.",
        discussion: """
            The author is a stored user, named by handle (add one with `timeline user`). The message \
            is marked read: you wrote it.

            Example:
              timeline post --as alice "Shipping the new release today 🚀"
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .customLong("as"), help: ArgumentHelp("The author's handle (with or without @).", valueName: "handle"))
    var handle: String

    @Argument(help: "The text of the message.")
    var text: String

    func run() throws {
        let store = try location.openStore(create: true)
        let handle = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
        let authors = try reportingErrors { try store.users(handle: handle) }
        guard authors.count == 1, let author = authors.first else {
            if authors.isEmpty {
                Terminal.emitError("timeline: no user has the handle @\(handle). Add one first: timeline user ID --handle \(handle) --name \"Your Name\"\n")
            } else {
                Terminal.emitError("timeline: several users have the handle @\(handle) (IDs \(authors.map(\.id).joined(separator: ", "))). Give them different handles with `timeline user ID --handle NEW`.\n")
            }
            throw ExitCode(ExitStatus.dataError)
        }
        let message = try reportingErrors { try store.post(text, authorID: author.id) }
        Terminal.emit("Posted \(message.id).\n")
    }
}
