import ArgumentParser
import TimelineKit

struct UserCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "user",
        abstract: "Add a user, or change one.",
        discussion: """
            A new user needs --handle and --name. For an existing user, give only what changes.

            Examples:
              timeline user me --handle alice --name "Alice Example"
              timeline user me --name "Alice (on holiday)"
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The user's ID (any text; it stays as given).")
    var id: String

    @Option(name: .long, help: "The handle, without @.")
    var handle: String?

    @Option(name: .long, help: "The display name.")
    var name: String?

    @Option(name: .long, help: "The profile's web address.")
    var url: String?

    @Flag(inversion: .prefixedNo, help: "Whether the account is automated.")
    var bot: Bool?

    func run() throws {
        let store = try location.openStore(create: true)
        let existing = try reportingErrors { try store.users(ids: [id]).first }
        guard var user = existing ?? handle.flatMap({ handle in name.map { User(id: id, handle: handle, name: $0) } }) else {
            Terminal.emitError("timeline: there is no user \(id) yet; a new user needs both --handle and --name.\n")
            throw ExitCode(ExitStatus.usage)
        }
        if let handle { user.handle = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle }
        if let name { user.name = name }
        if let url { user.url = url.isEmpty ? nil : url }
        if let bot { user.isBot = bot }
        try reportingErrors { try store.upsert(users: [user]) }
        Terminal.emit(TerminalText.body("\(existing == nil ? "Added" : "Updated") user \(user.id) (@\(user.handle)).\n"))
    }
}
