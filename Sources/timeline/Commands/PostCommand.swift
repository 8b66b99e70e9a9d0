import ArgumentParser
import TimelineKit

struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Add a message written here.",
        discussion: """
            The author is a stored user, named by handle (add one with `timeline user`). The message \
            is marked read: you wrote it. --json prints one object: id, author (the author's ID, \
            as in `show --json`), handle, created_at.

            Example:
              timeline post --as alice "Shipping the new release today 🚀"
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .customLong("as"), help: ArgumentHelp("The author's handle (with or without @).", valueName: "handle"))
    var handle: String

    @Argument(help: "The text of the message.")
    var text: String

    @Flag(name: .long, help: "Print one JSON object: the new message's id, author, handle and created_at.")
    var json = false

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
        if json {
            var object = JSONObjectWriter()
            object.add("id", message.id)
            object.add("author", author.id)
            object.add("handle", author.handle)
            object.add("created_at", message.createdAt.formatted(.iso8601))
            Terminal.emit(object.finish() + "\n")
        } else {
            Terminal.emit("Posted \(message.id).\n")
        }
    }
}
