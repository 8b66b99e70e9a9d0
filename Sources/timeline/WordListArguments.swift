import ArgumentParser

/// A command whose only positional argument is a list of words, any number of them: message
/// references, IDs, handles, a search's words.
///
/// ArgumentParser (1.8) reads such a list in time quadratic in its length: each value merges
/// the origins of all before it (`ParsedValues.update`, `InputOrigin.formUnion`), and each used
/// origin is then removed by a scan from the start (`SplitArguments.remove(at:)`). 20,000
/// references took 9 to 13 s before anything happened, `--help` included (issue 33).
/// ``WordListArguments`` hands it such a list short, and puts the list back.
protocol WordListCommand: ParsableCommand {
    /// The list, as ArgumentParser read it.
    var words: [String] { get set }
}

/// A command line as ArgumentParser gets it when it is long: each run of three or more plain
/// words (not starting with `-`) after a ``WordListCommand``'s name keeps its first word and
/// gives the rest as one stand-in word, which ``restore(_:)`` replaces with them once parsed.
///
/// Why the result is what ArgumentParser would read from the whole line: of a run of plain
/// words, only the first can be an option's value (no option of these commands takes more than
/// one value: `WordListArgumentsTests` holds their dumped options to it), so every word after
/// the first is a positional one, and the command's one positional argument is the list, which
/// takes them in order. After `--` every word is positional, dashes and all. The stand-in is
/// itself a plain word, positional as the words it stands for; it holds a NUL, which no word of
/// a real command line can (an `argv` string ends at its first NUL), so it stands for nothing
/// else. Validation sees the stand-in in place of the words: these commands' `validate()` asks
/// only whether the list is empty, which it is not either way.
struct WordListArguments {
    /// What ArgumentParser reads.
    private(set) var arguments: [String]
    /// The words each stand-in stands for, by its number.
    private var runs: [ArraySlice<String>] = []

    /// Command lines up to this long are read as they are: the cost is in long lists.
    static let shortLine = 64

    /// `arguments` (the command line without the program's name), shortened when it names a
    /// ``WordListCommand`` and is longer than ``shortLine``.
    init(_ arguments: [String]) {
        self.arguments = arguments
        guard arguments.count > Self.shortLine, let name = Self.commandIndex(in: arguments),
              Self.takesWordList(arguments[name]) else { return }
        var shortened = Array(arguments[...name])
        var index = name + 1
        while index < arguments.count {
            if arguments[index] == "--" {
                // Everything after it is the list's: the first word as it is, the rest as one.
                shortened.append("--")
                append(arguments[(index + 1)...], to: &shortened)
                break
            }
            var end = index
            while end < arguments.count, Self.isPlain(arguments[end]) { end += 1 }
            if end == index {
                shortened.append(arguments[index])
                index += 1
            } else {
                append(arguments[index ..< end], to: &shortened)
                index = end
            }
        }
        self.arguments = shortened
    }

    /// `words` added to `shortened`: the first as it is, the rest (two or more) as a stand-in.
    private mutating func append(_ words: ArraySlice<String>, to shortened: inout [String]) {
        guard words.count >= 3, let first = words.first else {
            shortened += words
            return
        }
        shortened.append(first)
        shortened.append(Self.standIn(runs.count))
        runs.append(words.dropFirst())
    }

    /// `command` with each stand-in in its list replaced by the words it stands for.
    func restore(_ command: any ParsableCommand) -> any ParsableCommand {
        guard !runs.isEmpty, var list = command as? any WordListCommand else { return command }
        var words: [String] = []
        words.reserveCapacity(arguments.count + runs.reduce(0) { $0 + $1.count })
        for word in list.words {
            if let number = Self.number(ofStandIn: word) { words += runs[number] } else { words.append(word) }
        }
        list.words = words
        return list
    }

    private static let standInPrefix = "\u{0}words "

    private static func standIn(_ number: Int) -> String {
        standInPrefix + String(number)
    }

    private static func number(ofStandIn word: String) -> Int? {
        guard word.hasPrefix(standInPrefix) else { return nil }
        return Int(word.dropFirst(standInPrefix.count))
    }

    /// A word that is not an option's name: ArgumentParser takes it as a value.
    private static func isPlain(_ word: String) -> Bool {
        word.utf8.first != UInt8(ascii: "-")
    }

    /// Where the command's name is: first, or after `--db PATH` (every command's, which may
    /// come before the name).
    private static func commandIndex(in arguments: [String]) -> Int? {
        var index = 0
        while index < arguments.count, arguments[index] == "--db" || arguments[index].hasPrefix("--db=") {
            index += arguments[index] == "--db" ? 2 : 1
        }
        return index < arguments.count ? index : nil
    }

    /// Whether `name` (or an alias) is a ``WordListCommand``'s.
    private static func takesWordList(_ name: String) -> Bool {
        TimelineCommand.configuration.subcommands.contains { command in
            command is any WordListCommand.Type && CommandSuggestion.names(of: command).contains(name)
        }
    }
}

extension TimelineCommand {
    /// The command `arguments` name, read as ArgumentParser reads them, in time linear in their
    /// number (``WordListArguments``).
    static func parse(commandLine arguments: [String]) throws -> any ParsableCommand {
        let shortened = WordListArguments(arguments)
        let command = shortened.restore(try parseAsRoot(shortened.arguments))
        return command
    }
}
