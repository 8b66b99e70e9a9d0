import TimelineKit

/// `show --json`: one message per line in the import format, its author under `"user"`.
enum JSONLinesShowOutput {
    static func lines(for page: TimelinePage) -> String {
        let users = page.usersByID
        var text = ""
        for message in page.messages {
            text += JSONLinesExporter.line(for: message, author: users[message.authorID]) + "\n"
        }
        return text
    }
}
