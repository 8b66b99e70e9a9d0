import TimelineKit

/// Has the person write a post's text in their editor, as `git commit` does: `$VISUAL`, else
/// `$EDITOR`, else `vi`, run by the shell (so `EDITOR="code --wait"` works) on a file in a
/// private directory (``PrivateTemporaryFile``) that starts with the text to change and help
/// lines (``DraftFile``). Used by `post`, `edit` and `browse`'s `r` when no text is given and a
/// person is at the terminal; the caller gives the terminal up meanwhile where it had taken it.
enum DraftEditor {
    /// Why no text came back: each says that nothing was posted (or changed).
    enum Failure: Error, CustomStringConvertible {
        /// The person left the file with nothing but help lines (or white space).
        case empty(DraftFile.Purpose)
        /// The editor could not be started, or ended with a failure status or a signal.
        case editorFailed(editor: String, how: String, DraftFile.Purpose)
        /// The file could not be made or read back.
        case file(FileSystemError, DraftFile.Purpose)

        var description: String {
            switch self {
            case let .empty(purpose):
                "the text is empty, so nothing was \(Self.done(purpose)) (write it above the lines starting with \"# \", or give it as an argument)."
            case let .editorFailed(editor, how, purpose):
                "the editor (\(TerminalText.line(editor))) \(how), so nothing was \(Self.done(purpose)). Set $VISUAL or $EDITOR to the editor to use, or give the text as an argument."
            case let .file(error, purpose):
                "the file to write the text in could not be used (\(error)), so nothing was \(Self.done(purpose)). Give the text as an argument, or - to read it from standard input."
            }
        }

        private static func done(_ purpose: DraftFile.Purpose) -> String { purpose == .edit ? "changed" : "posted" }
    }

    /// The largest file read back: as for standard input, far past any server's limit.
    static let sizeLimit = 1 << 20

    /// The editor's command line: `$VISUAL`, else `$EDITOR` (the first set and not empty), else `vi`.
    static var command: String {
        for name in ["VISUAL", "EDITOR"] {
            if let value = Terminal.environment(name), !value.allSatisfy(\.isWhitespace) { return value }
        }
        return "vi"
    }

    /// Runs the editor on a file holding `text` and `help` and answers what the person wrote
    /// (help lines left out, ends trimmed). The editor has the terminal: standard input, output
    /// and error are inherited.
    static func write(_ purpose: DraftFile.Purpose, text: String = "", help: [String]) throws(Failure) -> String {
        let result = DraftFile.text(from: try edit(purpose, text: text, help: help))
        if result.isEmpty { throw .empty(purpose) }
        return result
    }

    /// Runs the editor as ``write(_:text:help:)`` does and answers the whole file as it was
    /// left, help lines included: `browse`'s reply reads its pictures from it (``DraftPictures``),
    /// whose refusals name lines of that file.
    static func edit(_ purpose: DraftFile.Purpose, text: String = "", help: [String]) throws(Failure) -> String {
        let contents = DraftFile.contents(text: text, help: help)
        let file: PrivateTemporaryFile
        do throws(FileSystemError) {
            // Editors tell the kind of file by its name; git's is COMMIT_EDITMSG.
            file = try PrivateTemporaryFile(prefix: "timeline-", name: "POST_EDITMSG", contents: Array(contents.utf8))
        } catch {
            throw .file(error, purpose)
        }
        defer { file.remove() }
        let editor = command
        // The editor's command line is the person's own (`vim -u NONE`, `code --wait`): the
        // shell reads it; the file's path is an argument, never part of the script.
        guard let child = try? ChildProcess(executable: "/bin/sh", arguments: ["sh", "-c", editor + " \"$@\"", editor, file.path],
                                            descriptors: [:])
        else { throw .editorFailed(editor: editor, how: "could not be started", purpose) }
        switch child.wait() {
        case .exited(0):
            break
        case let .exited(status):
            throw .editorFailed(editor: editor, how: status == 127 ? "was not found" : "ended with status \(status)", purpose)
        case let .signalled(signal):
            throw .editorFailed(editor: editor, how: "was ended by signal \(signal)", purpose)
        }
        let written: [UInt8]
        do throws(FileSystemError) {
            written = try file.read(limit: sizeLimit)
        } catch {
            throw .file(error, purpose)
        }
        return String(decoding: written, as: UTF8.self)
    }
}
