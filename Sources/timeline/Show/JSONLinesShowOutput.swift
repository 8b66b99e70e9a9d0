import TimelineKit

/// `show --json`: one message per line in the import format, its author under `"user"`, and the
/// account's favourite, boost, bookmark and pending action on it where set (a repost: on the
/// post it reposts).
enum JSONLinesShowOutput {
    static func lines(for page: TimelinePage) -> String {
        let users = page.usersByID
        let interactions = page.interactionsByID
        var text = ""
        for message in page.messages {
            let interaction = TimelinePage.interaction(shownWith: message, in: interactions)
            text += JSONLinesExporter.line(for: message, author: users[message.authorID], interaction: interaction) + "\n"
        }
        return text
    }
}
