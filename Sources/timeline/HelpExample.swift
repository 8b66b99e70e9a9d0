/// A shell command as a help text shows it: on lines of at most 80 columns, broken between words
/// with ` \` and the rest indented under it, so that ArgumentParser, which wraps a discussion at
/// 80 columns and starts the rest of a line at the margin, never cuts an example in two (issue
/// 37: `--token-stdin` alone at the margin read as an option of the help). Pasted into a shell or
/// a start-up file, the broken command is the same command: bash, zsh and fish all join a line
/// that ends in a backslash to the next.
enum HelpExample {
    /// `command` after `indent`, broken at spaces outside quotes (a break inside would change
    /// what the command says) where a line would pass `width` columns. ArgumentParser wraps a
    /// line of 80, so 79 is the most.
    static func wrapped(_ command: String, indent: String = "  ", width: Int = 79) -> String {
        let continuation = indent + "    "
        var lines: [String] = []
        var line = indent
        for word in words(of: command) {
            let prefix = line == indent || line == continuation ? "" : " "
            if line != indent, line != continuation, line.count + prefix.count + word.count + " \\".count > width {
                lines.append(line + " \\")
                line = continuation + word
            } else {
                line += prefix + word
            }
        }
        lines.append(line)
        return lines.joined(separator: "\n")
    }

    /// The words of `command` at the spaces that may be broken: none inside quotes.
    private static func words(of command: String) -> [String] {
        var words: [String] = []
        var word = ""
        var quote: Character?
        for character in command {
            if character == " ", quote == nil {
                if !word.isEmpty { words.append(word) }
                word = ""
                continue
            }
            if character == "'" || character == "\"" {
                if quote == nil { quote = character } else if quote == character { quote = nil }
            }
            word.append(character)
        }
        if !word.isEmpty { words.append(word) }
        return words
    }
}
