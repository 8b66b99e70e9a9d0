import ArgumentParser
import TimelineKit

/// How `timeline conversations` names a chat (issue 37): `chat:` and the chat's ID at its
/// server, which `timeline chat` takes (with or without `chat:`). A chat's messages are not
/// posts and are not stored, so no short reference names them.
enum ChatReference {
    static let prefix = "chat:"

    /// Refuses `reference` as a post to answer when it names a chat (`post --reply-to chat:ID`):
    /// a chat is answered in the chat, never with a public post.
    static func refuseAsPost(_ reference: String) throws(ExitCode) {
        guard reference.hasPrefix(prefix) else { return }
        Terminal.emitError("timeline: \(QuotedValue.quoted(reference)) is a chat, not a post: answer it with `timeline chat \(TerminalText.line(reference)) TEXT`, which sends a message, never a public post. Nothing was posted.\n")
        throw ExitCode(ExitStatus.usage)
    }

    /// The chat ID `text` names: `text` without its `chat:`.
    static func id(_ text: String) -> String {
        text.hasPrefix(prefix) ? String(text.dropFirst(prefix.count)) : text
    }
}
