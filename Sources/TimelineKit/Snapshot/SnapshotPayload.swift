#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The snapshot's payload, format version 7 (`TimelineSnapshot.formatVersion`): each type's
// fields in the order they are written, read and stepped over, listed once here (see
// `BinaryRecord`; `BinaryEncoder` has the bytes of each kind of field). The names are the
// Codable keys, as errors report them; the lists follow the order of declaration.
//
// Changing a list changes the format: bump `TimelineSnapshot.formatVersion`, keep the old
// version's file in `Fixtures/`, and see `SnapshotFormatVersionTests`. `SnapshotPreviewReader`
// chooses what to make by two things these lists keep: `Message` and `User` begin with their ID,
// and a page lists its messages last (format 6), so that a first screen reads only a prefix.

extension TimelineSnapshot: BinaryRecord {
    static var blank: TimelineSnapshot {
        TimelineSnapshot(state: .blank, builtAt: Date(timeIntervalSinceReferenceDate: 0), limit: 0, window: .blank)
    }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&state, "state")
        try visitor.visit(&builtAt, "builtAt")
        try visitor.visit(&limit, "limit")
        try visitor.visit(&window, "window")
    }
}

extension TimelineState: BinaryRecord {
    static var blank: TimelineState {
        TimelineState(databaseID: "", generation: 0, messageCount: 0, unreadCount: 0, userCount: 0)
    }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&databaseID, "databaseID")
        try visitor.visit(&generation, "generation")
        try visitor.visit(&messageCount, "messageCount")
        try visitor.visit(&unreadCount, "unreadCount")
        try visitor.visit(&userCount, "userCount")
    }
}

extension TimelinePage: BinaryRecord {
    static var blank: TimelinePage { TimelinePage(messages: []) }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&related, "related")
        try visitor.visit(&users, "users")
        try visitor.visit(&nextCursor, "nextCursor")
        // Format 3: what the person's accounts did to the page's messages.
        try visitor.visit(&interactions, "interactions")
        // Last since format 6: a first screen needs only the head of the messages, and what comes
        // before it (a snapshot is decompressed only as far as it is read, `LZ4FrameDecoder`).
        try visitor.visit(&messages, "messages")
    }
}

extension MessageInteraction: BinaryRecord {
    static var blank: MessageInteraction { MessageInteraction(messageID: "") }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&messageID, "messageID")
        try visitor.visit(&favourited, "favourited")
        try visitor.visit(&boosted, "boosted")
        try visitor.visit(&bookmarked, "bookmarked")
        // Format 4: an action on it waits for its server (`PendingAction`).
        try visitor.visit(&pending, "pending")
    }
}

extension TimelineCursor: BinaryRecord {
    static var blank: TimelineCursor { TimelineCursor(createdAtMilliseconds: 0, id: "") }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&createdAtMilliseconds, "createdAtMilliseconds")
        try visitor.visit(&id, "id")
    }
}

extension Message: BinaryRecord {
    static var blank: Message {
        Message(id: "", authorID: "", text: "", createdAt: Date(timeIntervalSinceReferenceDate: 0))
    }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&id, "id")
        try visitor.visit(&authorID, "authorID")
        try visitor.visit(&text, "text")
        try visitor.visit(&createdAt, "createdAt")
        try visitor.visit(&editedAt, "editedAt")
        try visitor.visit(&replyToID, "replyToID")
        try visitor.visit(&replyToUserID, "replyToUserID")
        try visitor.visit(&repostOfID, "repostOfID")
        try visitor.visit(&quoteOfID, "quoteOfID")
        try visitor.visit(&contentWarning, "contentWarning")
        try visitor.visit(&url, "url")
        try visitor.visit(&attachments, "attachments")
        try visitor.visit(&likeCount, "likeCount")
        try visitor.visit(&repostCount, "repostCount")
        try visitor.visit(&replyCount, "replyCount")
        try visitor.visit(&isRead, "isRead")
        // Written as its letters (format version 2): what `show` paints beside each entry.
        var reference = shortReference.text
        try visitor.visit(&reference, "shortReference")
        shortReference = ShortReference(text: reference)
        // Format 5 (issue 34): who may see it, what its server said of it, and why the person's
        // rules paint it collapsed. A hidden message is never in a snapshot.
        try visitor.visit(&visibility, "visibility")
        try visitor.visit(&moderation, "moderation")
        try visitor.visit(&warning, "warning")
        // Format 6 (issue 35): where it came from, by its name.
        try visitor.visit(&source, "source")
        // Format 7 (issue 37): its web links, so that a message read back from the snapshot
        // equals the stored one and reconciling an unchanged timeline repaints nothing.
        try visitor.visit(&links, "links")
    }
}

/// Its name, as a string, read back unchecked: `show` reads one per message it paints, and a
/// name reaches the terminal only as the mark a registered source has (an altered file's name
/// has none), or escaped in `--json`.
extension MessageSource: BinaryField {
    func write(to writer: BinaryWriter) { rawValue.write(to: writer) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> MessageSource {
        MessageSource(unchecked: try String.read(from: reader))
    }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try String.skip(in: reader) }
}

/// One byte, its place in `allCases`; a byte that names none fails the read.
extension PostVisibility: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeByte(UInt8(Self.allCases.firstIndex(of: self)!)) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> PostVisibility {
        try reader.readCase(of: Self.allCases, named: "visibility")
    }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipBytes(1) }
}

/// One byte, its place in `allCases`, as `PostVisibility`.
extension FilterAction: BinaryField {
    func write(to writer: BinaryWriter) { writer.writeByte(UInt8(Self.allCases.firstIndex(of: self)!)) }
    static func read(from reader: BinaryReader) throws(BinaryDecodingError) -> FilterAction {
        try reader.readCase(of: Self.allCases, named: "filter action")
    }
    static func skip(in reader: BinaryReader) throws(BinaryDecodingError) { try reader.skipBytes(1) }
}

extension ModerationFacts: BinaryRecord {
    static var blank: ModerationFacts { .none }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&labels, "labels")
        try visitor.visit(&filterMatches, "filterMatches")
    }
}

extension ContentLabel: BinaryRecord {
    static var blank: ContentLabel { ContentLabel(source: "", value: "") }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&source, "source")
        try visitor.visit(&value, "value")
        try visitor.visit(&isOnAuthor, "isOnAuthor")
    }
}

extension FilterMatch: BinaryRecord {
    static var blank: FilterMatch { FilterMatch(title: "", action: .warn) }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&title, "title")
        try visitor.visit(&action, "action")
    }
}

extension Attachment: BinaryRecord {
    static var blank: Attachment { Attachment(kind: "") }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&kind, "kind")
        try visitor.visit(&url, "url")
        try visitor.visit(&altText, "alt_text")
    }
}

extension User: BinaryRecord {
    static var blank: User { User(id: "", handle: "", name: "") }

    mutating func visitFields<Visitor: BinaryFieldVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&id, "id")
        try visitor.visit(&handle, "handle")
        try visitor.visit(&name, "name")
        try visitor.visit(&url, "url")
        try visitor.visit(&isBot, "isBot")
    }
}
