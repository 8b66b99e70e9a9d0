import ArgumentParser

/// What `timeline` says when a word where a command belongs names none (`timeline shwo`,
/// `timeline help shwo`): that the command does not exist and, when one is close, which was
/// meant, as ArgumentParser already does for a mistyped flag. Without it `timeline shwo` reads as
/// `timeline show shwo` (show is the default command) and is refused as an unexpected argument
/// to show, and `timeline help shwo` prints the general help as if all were well.
enum CommandSuggestion {
    /// The error for `arguments` (without the program's name) when their first word, or a word
    /// after `help`, is not a command; `nil` when every such word names one.
    static func unknownCommand(in arguments: some Collection<String>) -> String? {
        var words = arguments[...]
        // `--db PATH`, every command's, may come before the command's name (`TimelineCommand`).
        while let first = words.first, first == "--db" || first.hasPrefix("--db=") {
            words = words.dropFirst(first == "--db" ? 2 : 1)
        }
        var command: any ParsableCommand.Type = TimelineCommand.self
        if words.first == "help" {
            words = words.dropFirst()
            // `help` names a path of commands: each word must be a subcommand of the one before.
            while let word = words.popFirst(), !word.hasPrefix("-") {
                let subcommands = command.configuration.subcommands
                if subcommands.isEmpty { return nil }  // arguments of a command, its help will say
                guard let next = subcommands.first(where: { Self.names(of: $0).contains(word) }) else {
                    return message(for: word, among: subcommands.map(name(of:)), under: command)
                }
                command = next
            }
            return nil
        }
        // The root takes no arguments of its own, and neither does `show`, its default command:
        // a first word that is not a flag has to be a command.
        guard let word = words.first, !word.hasPrefix("-") else { return nil }
        // A command's aliases are commands too (`timeline like` is `timeline favourite`).
        let names = command.configuration.subcommands.flatMap { Self.names(of: $0) } + ["help"]
        return names.contains(word) ? nil : message(for: word, among: names, under: command)
    }

    private static func name(of command: any ParsableCommand.Type) -> String {
        command.configuration.commandName ?? command._commandName
    }

    /// The command's name and its aliases.
    static func names(of command: any ParsableCommand.Type) -> [String] {
        [name(of: command)] + command.configuration.aliases
    }

    private static func message(for word: String, among names: [String], under command: any ParsableCommand.Type) -> String {
        let path = ObjectIdentifier(command) == ObjectIdentifier(TimelineCommand.self) ? "timeline" : "timeline \(name(of: command))"
        var text = "Error: Unknown command '\(word)'."
        if let suggestion = closest(to: word, among: names) { text += " Did you mean '\(suggestion)'?" }
        return text + "\nSee '\(path) --help' for the list of commands."
    }

    /// The name `word` most likely meant to type: one it starts (`imp` for import), or one a
    /// typo or two away (a letter wrong, missing, extra, or two letters swapped); `nil` when no
    /// name is that close.
    static func closest(to word: String, among names: [String]) -> String? {
        let typed = Array(word.lowercased())
        if typed.count >= 2 {
            let started = names.filter { $0.hasPrefix(String(typed)) }
            if started.count == 1 { return started[0] }
        }
        let allowed = typed.count <= 3 ? 1 : 2
        let scored = names.map { (name: $0, distance: editDistance(typed, Array($0))) }
        guard let best = scored.min(by: { $0.distance < $1.distance }), best.distance <= allowed else { return nil }
        return best.name
    }

    /// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// two neighbours each cost one (so `shwo` is one away from `show`).
    static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { table[i][0] = i }
        for j in 0...b.count { table[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                table[i][j] = min(table[i - 1][j] + 1, table[i][j - 1] + 1, table[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    table[i][j] = min(table[i][j], table[i - 2][j - 2] + 1)
                }
            }
        }
        return table[a.count][b.count]
    }
}
