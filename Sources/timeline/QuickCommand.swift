import ArgumentParser

/// A command's request read without ArgumentParser: what the command was asked, and the work.
///
/// The everyday commands (`stats`, `search`, `mark-read`, `post`, `delete`, `export`) are run
/// from scripts and prompts many times a day, and ArgumentParser's reading of a command line
/// cost more than the work itself for the small ones (`timeline stats` on 10,000 messages:
/// 13.8 M instructions, 11.6 M of them ArgumentParser's; the sqlite3 shell does the same in
/// 4.0 M). Each such command declares its flags for ArgumentParser as before (help, completion
/// scripts and error messages come from there) and keeps its work in a `Request` that either
/// reader builds. `show` has its own reader (`ShowRequest`), being the launch path.
protocol QuickRequest: Equatable {
    /// Long option names that take a value, besides `--db`.
    static var options: Set<String> { get }
    /// Long flag names.
    static var flags: Set<String> { get }
    /// Short option names and the long names they stand for.
    static var shortOptions: [String: String] { get }

    /// The request `arguments` make, or `nil` when ArgumentParser should read them: anything
    /// unusual, and every invalid value or combination (ArgumentParser explains those).
    init?(_ arguments: PlainArguments)

    func run() throws(ExitCode)
}

extension QuickRequest {
    static var flags: Set<String> { [] }
    static var shortOptions: [String: String] { [:] }
}

/// Finds the everyday command a command line names and reads its arguments by hand.
enum QuickCommand {
    /// The request for `arguments` (the command's name first), or `nil` when ArgumentParser
    /// should read them.
    static func parse(_ arguments: some Collection<String>) -> (any QuickRequest)? {
        let rest = arguments.dropFirst()
        switch arguments.first {
        case "stats": return parse(rest, as: StatsCommand.Request.self)
        case "search": return parse(rest, as: SearchCommand.Request.self)
        case "mark-read": return parse(rest, as: MarkReadCommand.Request.self)
        case "post": return parse(rest, as: PostCommand.Request.self)
        case "delete": return parse(rest, as: DeleteCommand.Request.self)
        case "export": return parse(rest, as: ExportCommand.Request.self)
        default: return nil
        }
    }

    static func parse<Request: QuickRequest>(_ arguments: some Collection<String>, as: Request.Type) -> Request? {
        PlainArguments(arguments, options: Request.options, flags: Request.flags, shortOptions: Request.shortOptions).flatMap(Request.init)
    }

    /// Runs `request` and returns the exit status (the command has said what went wrong).
    static func run(_ request: any QuickRequest) -> Int32 {
        do {
            try request.run()
            return ExitCode.success.rawValue
        } catch {
            return error.rawValue
        }
    }
}
