/// A command line read by hand, for the one command that runs at every shell start (`show`).
///
/// ArgumentParser reads a command line by reflecting over the whole command tree: about 2 ms of
/// a launch that otherwise takes 4 (`../shared/design/startup-facts.md`). Every other command is
/// read by ArgumentParser alone. This reader knows only the shapes people and scripts type:
/// `--name value`, `--name=value`, a short option such as `-n 5` or `-n5`, a flag alone. Anything
/// else (help, a name not in the table, a missing value, a value that looks like a flag, a name
/// given twice, a word that is not an option) makes it give up, and ArgumentParser reads the same
/// arguments with its proper messages.
///
/// The names come from a `Table` that mirrors what ArgumentParser declares for the command;
/// `LaunchArgumentsTests` dumps ArgumentParser's own table (`--experimental-dump-help`) and holds
/// this one to it, so the two cannot drift apart. What is read is taken (`flag(_:)`,
/// `value(_:)`): a reader checks `isEmpty` at the end, so an option given but not read makes the
/// whole line ArgumentParser's, never a silently dropped option.
///
/// Why the table is one string and the reading walks bytes: `show`'s instructions are measured
/// (tools/bench stage 12) and must not grow, and an array of a type of our own, a dictionary or a
/// `Character`-level string search each cost more, the first time a process uses them, than the
/// whole reading of a line (the runtime builds their metadata).
struct LaunchArguments {
    /// The options and flags of one command: one line each, its names with their dashes separated
    /// by spaces, the first being the name a reader asks for, and `<value>` last for an option:
    ///
    ///     --limit -n <value>
    ///     --json
    struct Table: Sendable {
        let text: StaticString

        init(_ text: StaticString) {
            self.text = text
        }

        /// One line of the table, for tests and messages.
        struct Entry: Equatable {
            var names: [String]
            var takesValue: Bool
        }

        /// The lines, for tests and messages (the reader itself walks the bytes).
        var entries: [Entry] {
            text.description.split(separator: "\n").map { line in
                let words = line.split(separator: " ").map(String.init)
                return Entry(names: words.filter { $0 != Self.valueMark }, takesValue: words.last == Self.valueMark)
            }
        }

        static let valueMark = "<value>"

        /// The line that has `name` among its names: its number, where it starts in `text`, and
        /// whether it takes a value.
        func entry(named name: some Collection<UInt8>) -> (index: Int, start: Int, takesValue: Bool)? {
            text.withUTF8Buffer { bytes in
                var index = 0
                var lineStart = 0
                var found = false
                var position = 0
                while position <= bytes.count {
                    // Each word, up to a space, a line break or the end.
                    var end = position
                    while end < bytes.count, bytes[end] != UInt8(ascii: " "), bytes[end] != UInt8(ascii: "\n") { end += 1 }
                    if !found, end - position == name.count, bytes[position..<end].elementsEqual(name) {
                        found = true
                    }
                    if end == bytes.count || bytes[end] == UInt8(ascii: "\n") {
                        if found {
                            // `<value>` ends the line of an option.
                            let mark = 7
                            let takesValue = end - lineStart >= mark && bytes[end - mark] == UInt8(ascii: "<")
                            return (index, lineStart, takesValue)
                        }
                        index += 1
                        lineStart = end + 1
                    }
                    position = end + 1
                }
                return nil
            }
        }

        /// Whether the line starting at `start` has `name` as its first name.
        func line(at start: Int, isFirstNamed name: StaticString) -> Bool {
            text.withUTF8Buffer { bytes in
                name.withUTF8Buffer { name in
                    let end = start + name.count
                    return end <= bytes.count && bytes[start..<end].elementsEqual(name)
                        && (end == bytes.count || bytes[end] == UInt8(ascii: " ") || bytes[end] == UInt8(ascii: "\n"))
                }
            }
        }
    }

    private let arguments: ArraySlice<String>
    private let table: Table
    /// For each line of the table given, where (the position of its name in `arguments`), and
    /// where the line starts in the table (at 64 + its number); empty when nothing was given.
    private var positions: [Int] = []
    /// The lines given, and those a reader took (bit n: line n).
    private var given: UInt64 = 0
    private var taken: UInt64 = 0

    /// Reads `arguments` (the command's name already taken off) against `table`; `nil` when
    /// ArgumentParser should read them.
    init?(_ arguments: ArraySlice<String>, table: Table) {
        self.arguments = arguments
        self.table = table
        var position = arguments.startIndex
        while position < arguments.endIndex {
            let utf8 = arguments[position].utf8
            let dash = UInt8(ascii: "-")
            guard utf8.count > 1, utf8.first == dash, !(utf8.count == 2 && utf8.last == dash) else { return nil }
            var name = utf8[...]
            var attached = false
            if utf8.dropFirst().first == dash {
                if let equals = utf8.firstIndex(of: UInt8(ascii: "=")) {
                    name = utf8[..<equals]
                    attached = true
                }
            } else if utf8.count > 2 {
                // `-n5`: a short option with its value joined.
                name = utf8.prefix(2)
                attached = true
            }
            guard let (index, start, takesValue) = table.entry(named: name).map({ ($0.index, $0.start, $0.takesValue) }), index < 64
            else { return nil }
            // A name given twice is ArgumentParser's to refuse or accept.
            let bit: UInt64 = 1 << index
            guard given & bit == 0 else { return nil }
            given |= bit
            if positions.isEmpty { positions = [Int](repeating: -1, count: 128) }
            positions[index] = position
            positions[64 + index] = start
            if takesValue && !attached {
                // ArgumentParser takes a value after the name only when it does not look like a
                // flag; `-` alone is a value (standard input or output).
                let next = position + 1
                guard next < arguments.endIndex else { return nil }
                let value = arguments[next].utf8
                guard value.first != dash || value.count == 1 else { return nil }
                position = next
            } else if !takesValue && attached {
                return nil
            }
            position += 1
        }
    }

    /// Takes the line whose first name is `name`; where its name was given, if it was.
    private mutating func take(_ name: StaticString) -> Int? {
        // Only the lines given and not yet taken are compared with `name`.
        var left = given & ~taken
        while left != 0 {
            let index = left.trailingZeroBitCount
            let bit: UInt64 = 1 << index
            left &= ~bit
            if table.line(at: positions[64 + index], isFirstNamed: name) {
                taken |= bit
                return positions[index]
            }
        }
        return nil
    }

    /// Whether the flag `name` (`--json`, its first name in the table) was given; taken.
    mutating func flag(_ name: StaticString) -> Bool {
        take(name) != nil
    }

    /// The value given for the option `name` (`--limit`, its first name in the table); taken.
    mutating func value(_ name: StaticString) -> String? {
        guard let position = take(name) else { return nil }
        let argument = arguments[position]
        let utf8 = argument.utf8
        if utf8.dropFirst().first == UInt8(ascii: "-") {
            // `--name=value`, else `--name value`.
            guard let equals = utf8.firstIndex(of: UInt8(ascii: "=")) else { return arguments[position + 1] }
            return String(argument[utf8.index(after: equals)...])
        }
        // `-n5`, else `-n 5`.
        return utf8.count > 2 ? String(argument[utf8.index(utf8.startIndex, offsetBy: 2)...]) : arguments[position + 1]
    }

    /// The value of `name` as `read` makes it: `nil` inside when it was not given, and `nil`
    /// outside when it was given but `read` refuses it (ArgumentParser then explains).
    mutating func value<T>(_ name: StaticString, as read: (String) -> T?) -> T?? {
        guard let text = value(name) else { return .some(nil) }
        return read(text).map { .some($0) }
    }

    /// Whether everything given was taken by the reader.
    var isEmpty: Bool { given & ~taken == 0 }
}
