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
