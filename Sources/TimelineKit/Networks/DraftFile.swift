/// The file a person writes a post in with their editor (`$VISUAL`, `$EDITOR`), as `git commit`
/// has them write a commit message: the text to start from (empty for a new post, the current
/// text for an edit), then help lines, which are left out of what is posted.
///
/// A help line is one that starts with `#` followed by a space, or is `#` alone: a line that
/// starts with a hashtag (`#swift at the meetup`) is text, not help, which is where this differs
/// from git (which drops every line starting with `#`). White space at the ends is dropped; what
/// is left empty means "post nothing".
///
/// ```swift
/// let file = DraftFile.contents(text: "", help: DraftFile.help(for: .reply, about: (handle: "alice", text: "What do you think?")))
/// // … the editor runs on it …
/// let text = DraftFile.text(from: edited)    // "" → nothing is posted
/// ```
package enum DraftFile {
    /// What the person is writing, for the help lines' first sentence.
    package enum Purpose: Sendable, Hashable {
        /// A new post.
        case post
        /// A reply to another post.
        case reply
        /// A post quoting another.
        case quote
        /// A new text for one of the account's own posts.
        case edit
    }

    /// The most lines of the message replied to (or quoted, or edited) the help quotes: enough
    /// to know which one it is, without pushing the text being written off the editor's screen.
    package static let quotedLineLimit = 12

    /// The help lines (each starting `# `) for writing `purpose`; `about` is the message it is
    /// about (its author's handle and its text), quoted line by line, neutralised: a message's
    /// text must not reach the terminal through the editor with control or escape sequences.
    /// `takesPictures` adds how to name pictures (``DraftPictures``); `notPosted` is why the
    /// text, opened again, was not posted the last time, said before the quote.
    package static func help(for purpose: Purpose, about: (handle: String, text: String)? = nil,
                             takesPictures: Bool = false, notPosted: String? = nil) -> [String] {
        var lines: [String]
        switch purpose {
        case .post: lines = ["Write the post above this line."]
        case .reply: lines = ["Write the reply above this line."]
        case .quote: lines = ["Write the post quoting it above this line."]
        case .edit: lines = ["Change the post's text above this line."]
        }
        lines.append("Lines starting with \"# \" are left out; if nothing else is left, nothing is \(purpose == .edit ? "changed" : "posted").")
        if takesPictures { lines += DraftPictures.help }
        if let notPosted { lines += ["", "Not posted: " + TerminalText.line(notPosted)] }
        if let about {
            lines.append("")
            let handle = TerminalText.line(about.handle)
            switch purpose {
            case .post, .edit: lines.append("@\(handle) wrote:")
            case .reply: lines.append("Replying to @\(handle):")
            case .quote: lines.append("Quoting @\(handle):")
            }
            var quoted = TerminalText.body(about.text).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if quoted.count > quotedLineLimit {
                quoted = Array(quoted.prefix(quotedLineLimit)) + ["…"]
            }
            lines += quoted.map { $0.isEmpty ? ">" : "> " + $0 }
        }
        return lines.map { $0.isEmpty ? "#" : "# " + $0 }
    }

    /// What the file holds before the editor opens: `text`, an empty line, the help lines.
    package static func contents(text: String, help: [String]) -> String {
        text + "\n\n" + help.joined(separator: "\n") + "\n"
    }

    /// The text written in `contents`: help lines left out, white space at both ends dropped
    /// (the line break an editor adds at the end, the empty line above the help). Empty when
    /// nothing else was written.
    package static func text(from contents: String) -> String {
        let kept = contents.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).filter { !isHelpLine($0) }
        var text = kept.joined(separator: "\n")
        while text.last?.isWhitespace == true { text.removeLast() }
        while text.first?.isWhitespace == true { text.removeFirst() }
        return text
    }

    /// Whether `line` is a help line: `#` alone, or `#` and a space or tab.
    static func isHelpLine(_ line: Substring) -> Bool {
        guard line.first == "#" else { return false }
        let rest = line.dropFirst()
        return rest.isEmpty || rest.first == " " || rest.first == "\t"
    }
}
