import Foundation
import Testing
import TimelineKit

/// The real API responses in `Fixtures/realdata/` (see its README for sources and licenses).
enum RealData {
    static let mastodonFiles = [
        "mastodon4j/public_timeline.json", "mastodon4j/tag.json", "mastodon4j/context.json",
        "mastodon4j/account_search.json", "tokodon/statuses.json", "tokodon/statuses-older.json",
        "tokodon/context.json", "tokodon/notifications.json", "TootSDK/post with emojis and attachments.json",
        "TootSDK/post wordle linebreaks.json", "TootSDK/post_akkoma_quote.json",
    ]
    static let twitterFiles = [
        "python-twitter/get_home_timeline.json", "python-twitter/friends_timeline-kesuke.json",
        "python-twitter/extended_tweet_in_extended_mode.json",
    ]
    static let allFiles = mastodonFiles + twitterFiles

    /// Files whose messages have attachments with more than one field.
    static func path(_ name: String) -> String { Fixtures.path("realdata/" + name) }

    static func bytes(_ name: String) throws -> [UInt8] {
        guard let data = FileManager.default.contents(atPath: path(name)) else {
            throw CocoaError(.fileReadNoSuchFile, userInfo: [NSFilePathErrorKey: path(name)])
        }
        return Array(data)
    }

    static func mastodon(_ name: String) throws -> DecodedTimeline {
        try MastodonDecoder().decode(bytes(name), sourceName: name)
    }

    static func twitter(_ name: String) throws -> DecodedTimeline {
        try TwitterDecoder().decode(bytes(name), sourceName: name)
    }

    /// The instant `milliseconds` after 1970, as the store keeps times.
    static func date(milliseconds: Int64) -> Date {
        Date(timeIntervalSince1970: Double(milliseconds) / 1000)
    }

    static func date(_ text: String) -> Date {
        try! Date(text, strategy: .iso8601)
    }
}
