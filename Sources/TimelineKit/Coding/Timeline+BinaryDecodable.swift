#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The containers of a snapshot, read straight from the reader like the messages they hold (see
// `BinaryDecodable`): with every type on the snapshot's path decoded directly, reading a snapshot
// makes no runtime type lookups at all. Fields in the order of the synthesized `CodingKeys`.

extension TimelineSnapshot: BinaryDecodable {
    static func decode(binary reader: BinaryReader) throws -> TimelineSnapshot {
        let state = try reader.decode(TimelineState.self, forKey: "state")
        let builtAt = try reader.decode(Date.self, forKey: "builtAt")
        let limit = try reader.decode(Int.self, forKey: "limit")
        let window = try reader.decode(TimelinePage.self, forKey: "window")
        return TimelineSnapshot(state: state, builtAt: builtAt, limit: limit, window: window)
    }
}

extension TimelineSnapshot {
    /// What `SnapshotPreview` holds: the snapshot's values with only the start of its window.
    struct PreviewParts {
        var state: TimelineState
        var builtAt: Date
        var limit: Int
        var head: TimelinePage
        var windowMessageCount: Int
        /// Where the window's messages after the head start in the payload.
        var restOffset: Int
    }

    /// Reads a snapshot as `decode(binary:)` does, except that of the window's messages only the
    /// first `count` are made, with the messages they repost or quote and the users all of those
    /// show; the rest are stepped over (their bounds checked, their text not). Making the strings of
    /// a whole 200-message window was most of a first paint that shows a screenful.
    static func decodePreview(binary reader: BinaryReader, messages count: Int) throws -> PreviewParts {
        let state = try reader.decode(TimelineState.self, forKey: "state")
        let builtAt = try reader.decode(Date.self, forKey: "builtAt")
        let limit = try reader.decode(Int.self, forKey: "limit")

        let windowMessageCount = try reader.readCount()
        var head: [Message] = []
        head.reserveCapacity(min(count, windowMessageCount))
        var referenced = Set<String>()
        for _ in 0..<min(count, windowMessageCount) {
            let message = try reader.decode(Message.self, forKey: "messages")
            if let id = message.repostOfID { referenced.insert(id) }
            if let id = message.quoteOfID { referenced.insert(id) }
            head.append(message)
        }
        let restOffset = reader.cursor
        for id in head.map(\.id) { referenced.remove(id) }
        // A later message of the window that a shown one reposts is made too, as `prefix` does.
        var moved: [Message] = []
        for _ in head.count..<windowMessageCount {
            if referenced.isEmpty {
                try Message.skip(binary: reader)
                continue
            }
            let start = reader.cursor
            let id = try reader.readString()
            if referenced.contains(id) {
                reader.rewind(to: start)
                moved.append(try reader.decode(Message.self, forKey: "messages"))
            } else {
                reader.rewind(to: start)
                try Message.skip(binary: reader)
            }
        }
        let related = try reader.decode([Message].self, forKey: "related") + moved

        var shownUsers = Set<String>()
        for message in head + related {
            shownUsers.insert(message.authorID)
            if let id = message.replyToUserID { shownUsers.insert(id) }
        }
        let userCount = try reader.readCount()
        var users: [User] = []
        for _ in 0..<userCount {
            let start = reader.cursor
            let id = try reader.readString()
            if shownUsers.contains(id) {
                reader.rewind(to: start)
                users.append(try reader.decode(User.self, forKey: "users"))
            } else {
                try User.skipAfterID(binary: reader)
            }
        }
        let nextCursor = try reader.decodeIfPresent(TimelineCursor.self, forKey: "nextCursor")
        return PreviewParts(
            state: state, builtAt: builtAt, limit: limit,
            head: TimelinePage(messages: head, related: related, users: users, nextCursor: nextCursor),
            windowMessageCount: windowMessageCount, restOffset: restOffset)
    }

    /// The whole snapshot of a preview: `parts` and its head messages, and everything after them
    /// read from `parts.restOffset`, so that completing a preview decodes each message once.
    static func decodeRemainder(binary reader: BinaryReader, of parts: PreviewParts) throws -> TimelineSnapshot {
        try reader.skipBytes(parts.restOffset)
        var messages = parts.head.messages
        messages.reserveCapacity(parts.windowMessageCount)
        for _ in messages.count..<parts.windowMessageCount {
            messages.append(try reader.decode(Message.self, forKey: "messages"))
        }
        let related = try reader.decode([Message].self, forKey: "related")
        let users = try reader.decode([User].self, forKey: "users")
        let nextCursor = try reader.decodeIfPresent(TimelineCursor.self, forKey: "nextCursor")
        return TimelineSnapshot(state: parts.state, builtAt: parts.builtAt, limit: parts.limit,
                                window: TimelinePage(messages: messages, related: related, users: users, nextCursor: nextCursor))
    }
}

extension TimelineState: BinaryDecodable {
    static func decode(binary reader: BinaryReader) throws -> TimelineState {
        let databaseID = try reader.decode(String.self, forKey: "databaseID")
        let generation = try reader.decode(Int64.self, forKey: "generation")
        let messageCount = try reader.decode(Int.self, forKey: "messageCount")
        let unreadCount = try reader.decode(Int.self, forKey: "unreadCount")
        let userCount = try reader.decode(Int.self, forKey: "userCount")
        return TimelineState(databaseID: databaseID, generation: generation, messageCount: messageCount,
                             unreadCount: unreadCount, userCount: userCount)
    }
}

extension TimelinePage: BinaryDecodable {
    static func decode(binary reader: BinaryReader) throws -> TimelinePage {
        let messages = try reader.decode([Message].self, forKey: "messages")
        let related = try reader.decode([Message].self, forKey: "related")
        let users = try reader.decode([User].self, forKey: "users")
        let nextCursor = try reader.decodeIfPresent(TimelineCursor.self, forKey: "nextCursor")
        return TimelinePage(messages: messages, related: related, users: users, nextCursor: nextCursor)
    }
}

extension TimelineCursor: BinaryDecodable {
    static func decode(binary reader: BinaryReader) throws -> TimelineCursor {
        let createdAtMilliseconds = try reader.decode(Int64.self, forKey: "createdAtMilliseconds")
        let id = try reader.decode(String.self, forKey: "id")
        return TimelineCursor(createdAtMilliseconds: createdAtMilliseconds, id: id)
    }
}
