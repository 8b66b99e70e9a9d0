/// A command line of plain shapes, read by hand for the everyday commands (see `QuickCommand`).
///
/// ArgumentParser reads a command line by reflecting over the whole command tree: about
/// 11.6 M instructions, 84% of all that `timeline stats` does, and as long as the sqlite3 shell
/// takes for the same counts. This reader knows only the shapes people and scripts type:
/// `--name value`, `--name=value`, a short option such as `-n 5` or `-n5` where the command has
/// one, flags, positional words, and `--` before words that start with a dash. Anything else
/// (help, a name it was not told of, a missing value, a value that looks like a flag, a name
/// given twice) makes it give up, and ArgumentParser reads the same arguments with its proper
/// messages. Tests hold each command's reading here to ArgumentParser's.
struct PlainArguments {
    /// The words that are not options or flags, in order.
    private(set) var positionals: [String] = []
    private var values: [String: String] = [:]
    private var flagsGiven: Set<String> = []

    /// Reads `arguments` (the command's name already taken off). `options` and `flags` are long
    /// names with their dashes (`--db` is always an option); `shortOptions` maps a short name to
    /// its long one (`"-n": "--limit"`), which also accepts the value joined (`-n5`).
    init?(_ arguments: some Collection<String>, options: Set<String>, flags: Set<String> = [], shortOptions: [String: String] = [:]) {
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            if argument == "--" {
                positionals += rest
                break
            }
            guard argument.hasPrefix("-"), argument != "-" else {
                positionals.append(argument)
                continue
            }
            var name = argument
            var attached: String?
            if argument.hasPrefix("--") {
                if let equals = argument.firstIndex(of: "=") {
                    name = String(argument[..<equals])
                    attached = String(argument[argument.index(after: equals)...])
                }
            } else if let long = shortOptions[String(argument.prefix(2))] {
                attached = argument.count > 2 ? String(argument.dropFirst(2)) : nil
                name = long
            } else {
                return nil
            }
            guard !values.keys.contains(name), !flagsGiven.contains(name) else { return nil }
            if flags.contains(name) {
                guard attached == nil else { return nil }
                flagsGiven.insert(name)
            } else if name == "--db" || options.contains(name) {
                // ArgumentParser takes a value after the name only when it does not look like a
                // flag; `-` alone is a value (standard input or output).
                guard let value = attached ?? rest.first.flatMap({ $0.hasPrefix("-") && $0 != "-" ? nil : $0 }) else { return nil }
                if attached == nil { rest = rest.dropFirst() }
                values[name] = value
            } else {
                return nil
            }
        }
    }

    /// The value given for the option `name` (`--db`), if it was given.
    func value(_ name: String) -> String? { values[name] }

    /// Whether the flag `name` (`--json`) was given.
    func flag(_ name: String) -> Bool { flagsGiven.contains(name) }

    /// The value of `name` as `read` makes it: `nil` inside when it was not given, and `nil`
    /// outside when it was given but `read` refuses it.
    func value<T>(_ name: String, as read: (String) -> T?) -> T?? {
        guard let text = values[name] else { return .some(nil) }
        return read(text).map { .some($0) }
    }
}
