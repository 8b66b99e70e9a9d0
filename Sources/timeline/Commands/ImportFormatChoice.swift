import ArgumentParser
import TimelineKit

/// What `timeline import --format` names: a format of users and messages (TimelineKit's
/// `ImportFormat`), or `opml`, a feed reader's subscription list, which TimelineFeeds reads and
/// TimelineKit knows nothing of.
enum ImportFormatChoice: Hashable, ExpressibleByArgument {
    case messages(ImportFormat)
    case opml

    init?(argument: String) {
        if argument == "opml" {
            self = .opml
        } else if let format = ImportFormat(rawValue: argument) {
            self = .messages(format)
        } else {
            return nil
        }
    }

    static var allValueStrings: [String] { ImportFormat.allCases.map(\.rawValue) + ["opml"] }

    /// The format of users and messages named, `nil` for `opml`.
    var messages: ImportFormat? {
        if case let .messages(format) = self { format } else { nil }
    }
}
