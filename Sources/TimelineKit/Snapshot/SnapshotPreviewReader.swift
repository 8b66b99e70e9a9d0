/// Reads a snapshot payload as far as a first screen needs (see `SnapshotPreview`): every field
/// as `TimelineSnapshot.read(from:)` does, by the same field lists (`SnapshotPayload.swift`),
/// except two of the window's. Of its messages, the first `count` are made, and of the later ones
/// only those the first repost or quote; of its users, only those the made messages (these and
/// `related`) show. The rest are stepped over, their bounds checked, their text not: making the
/// strings of a whole 200-message window was most of a first paint that shows a screenful.
///
/// The window read this way holds the head and the later messages it needs; `head` is then that
/// page's `prefix`, as for a whole window.
struct SnapshotPreviewReader: BinaryFieldVisitor {
    let reader: BinaryReader
    /// How many of the window's messages to make.
    let count: Int
    /// How many messages the whole window holds.
    private(set) var windowMessageCount = 0
    /// How many messages the head holds: `count`, or all there are.
    private(set) var headCount = 0
    /// Where the window's messages after the head start in the payload.
    private(set) var restOffset = 0
    /// The users that the messages made so far show: their authors, and the users they reply to.
    private var shownUserIDs = UTF8IDSet()
    private var usersRead = false

    private init(reader: BinaryReader, count: Int) {
        self.reader = reader
        self.count = max(0, count)
    }

    /// The snapshot with its window cut to the first `count` messages (`nextCursor` stays the
    /// window's own), how many messages the whole window holds, and where those after the head
    /// start in the payload.
    static func read(
        from reader: BinaryReader, messages count: Int
    ) throws(BinaryDecodingError) -> (snapshot: TimelineSnapshot, windowMessageCount: Int, restOffset: Int) {
        var fields = SnapshotPreviewReader(reader: reader, count: count)
        var snapshot = TimelineSnapshot.blank
        try snapshot.visitFields(&fields)
        let windowCursor = snapshot.window.nextCursor
        snapshot.window = snapshot.window.prefix(fields.headCount)
        snapshot.window.nextCursor = windowCursor
        return (snapshot, fields.windowMessageCount, fields.restOffset)
    }

    /// Each `as!` converts between `Field` and the type its branch has just checked `Field` is.
    mutating func visit<Field: BinaryField>(_ field: inout Field, _ name: StaticString) throws(BinaryDecodingError) {
        do throws(BinaryDecodingError) {
            if try visitFields(of: &field, as: TimelinePage.self) {
                // The window: its fields came through here.
            } else if isWindowMessages(Field.self, name) {
                let messages = try readWindowMessages()
                showUsers(of: messages)
                field = messages as! Field
            } else if Field.self == [Message].self {
                let messages = try [Message].read(from: reader)
                showUsers(of: messages)
                field = messages as! Field
            } else if Field.self == [User].self {
                usersRead = true
                field = try readShownUsers() as! Field
            } else {
                field = try Field.read(from: reader)
            }
        } catch {
            throw error.prefixed(with: BinaryCodingKey(stringValue: name.description))
        }
    }

    private mutating func showUsers(of messages: [Message]) {
        precondition(!usersRead, "a page lists its users after its messages: the preview picks users by the messages it made")
        for message in messages {
            shownUserIDs.insert(message.authorID)
            if let id = message.replyToUserID { shownUserIDs.insert(id) }
        }
    }

    private mutating func readWindowMessages() throws(BinaryDecodingError) -> [Message] {
        windowMessageCount = try reader.readCount()
        headCount = min(count, windowMessageCount)
        var messages: [Message] = []
        messages.reserveCapacity(headCount)
        try messages.append(readingFrom: reader, indices: 0 ..< headCount)
        restOffset = reader.cursor
        let wanted = UTF8IDSet(TimelinePage.originalIDs(shownWith: messages))
        try readListed(headCount ..< windowMessageCount, whoseIDIsIn: wanted, into: &messages)
        return messages
    }

    /// The users that the messages made so far show, in order.
    private func readShownUsers() throws(BinaryDecodingError) -> [User] {
        var users: [User] = []
        try readListed(0 ..< (try reader.readCount()), whoseIDIsIn: shownUserIDs, into: &users)
        return users
    }

    /// Reads the list elements `indices`, which start at the cursor: those whose ID is in `ids`
    /// are made, the others stepped over. The ID is compared where it lies in the payload: no
    /// `String` is made of the ones stepped over.
    private func readListed<Record: BinaryRecord>(
        _ indices: Range<Int>, whoseIDIsIn ids: UTF8IDSet, into records: inout [Record]
    ) throws(BinaryDecodingError) {
        var scratch = Record.blank
        for index in indices {
            do {
                if !ids.isEmpty, try reader.peekString({ ids.contains($0) }) {
                    records.append(try Record.read(from: reader))
                } else {
                    try Record.skip(in: reader, scratch: &scratch)
                }
            } catch {
                throw error.prefixed(with: IndexCodingKey(index))
            }
        }
    }
}

/// Reads the whole snapshot of a preview by the same field lists, from where the preview
/// stopped: the head's messages are taken as they are, not made again.
struct SnapshotRemainderReader: BinaryFieldVisitor {
    let reader: BinaryReader
    /// The window's first messages, already made.
    let head: [Message]
    /// Where the messages after them start in the payload.
    let restOffset: Int

    /// The whole snapshot whose window begins with `head`, the rest read from `restOffset`.
    static func read(from reader: BinaryReader, head: [Message], restOffset: Int) throws(BinaryDecodingError) -> TimelineSnapshot {
        var fields = SnapshotRemainderReader(reader: reader, head: head, restOffset: restOffset)
        var snapshot = TimelineSnapshot.blank
        try snapshot.visitFields(&fields)
        return snapshot
    }

    /// Each `as!` converts between `Field` and the type its branch has just checked `Field` is.
    mutating func visit<Field: BinaryField>(_ field: inout Field, _ name: StaticString) throws(BinaryDecodingError) {
        do throws(BinaryDecodingError) {
            if try visitFields(of: &field, as: TimelinePage.self) {
                // The window: its fields came through here.
            } else if isWindowMessages(Field.self, name) {
                let total = try reader.readCount()
                reader.move(to: restOffset)
                var messages = head
                messages.reserveCapacity(total)
                try messages.append(readingFrom: reader, indices: head.count ..< total)
                field = messages as! Field
            } else {
                field = try Field.read(from: reader)
            }
        } catch {
            throw error.prefixed(with: BinaryCodingKey(stringValue: name.description))
        }
    }
}

/// Whether a field is the window's own messages (a page's `related` are messages too).
private func isWindowMessages<Field>(_: Field.Type, _ name: StaticString) -> Bool {
    Field.self == [Message].self && name.description == "messages"
}
