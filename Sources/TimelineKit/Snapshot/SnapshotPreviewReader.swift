/// Reads a snapshot payload as far as a first screen needs (see `SnapshotPreview`): every field
/// as `TimelineSnapshot.read(from:)` does, by the same field lists (`SnapshotPayload.swift`),
/// except three of the window's. Of its messages, which come last, the first `count` are made
/// and the rest not even read: on a payload decompressed as it is read (`LZ4FrameDecoder`), their
/// blocks are not decompressed before the paint. Of its related messages and users, which come
/// before, each one's place is noted as it is stepped over, its bounds checked, its text not; the
/// ones the head shows (the originals its messages repost or quote, and the users those show)
/// are then made from there. Making the strings of a whole 200-message window was most of a
/// first paint that shows a screenful.
///
/// The window read this way holds the head and what it needs; `head` is then that page's
/// `prefix`, as for a whole window.
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
    /// Where each of the window's related messages and users starts, in order.
    private var relatedOffsets: [Int] = []
    private var userOffsets: [Int] = []
    /// The related messages and users the head shows, made once the head is read.
    private var related: [Message] = []
    private var users: [User] = []
    private var headRead = false

    private init(reader: BinaryReader, count: Int) {
        self.reader = reader
        self.count = max(0, count)
    }

    /// The snapshot with its window cut to the first `count` messages (`nextCursor` stays the
    /// window's own), how many messages the whole window holds, and where those after the head
    /// start in the payload. The reader is left there.
    static func read(
        from reader: BinaryReader, messages count: Int
    ) throws(BinaryDecodingError) -> (snapshot: TimelineSnapshot, windowMessageCount: Int, restOffset: Int) {
        var fields = SnapshotPreviewReader(reader: reader, count: count)
        var snapshot = TimelineSnapshot.blank
        try snapshot.visitFields(&fields)
        let windowCursor = snapshot.window.nextCursor
        snapshot.window.related = fields.related
        snapshot.window.users = fields.users
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
                field = try readHead() as! Field
            } else if Field.self == [Message].self {
                precondition(!headRead, "a page lists its messages last: the preview picks related messages and users by the head")
                relatedOffsets = try offsets(of: Message.self)
                field = [Message]() as! Field
            } else if Field.self == [User].self {
                precondition(!headRead, "a page lists its messages last: the preview picks related messages and users by the head")
                userOffsets = try offsets(of: User.self)
                field = [User]() as! Field
            } else {
                field = try Field.read(from: reader)
            }
        } catch {
            throw error.prefixed(with: BinaryCodingKey(stringValue: name.description))
        }
    }

    /// Steps over a list, noting where each element starts.
    private func offsets<Record: BinaryRecord>(of _: Record.Type) throws(BinaryDecodingError) -> [Int] {
        let total = try reader.readCount()
        var offsets: [Int] = []
        offsets.reserveCapacity(total)
        var scratch = Record.blank
        for index in 0 ..< total {
            offsets.append(reader.cursor)
            do {
                try Record.skip(in: reader, scratch: &scratch)
            } catch {
                throw error.prefixed(with: IndexCodingKey(index))
            }
        }
        return offsets
    }

    /// The window's first messages, and the originals they repost or quote that sit later in the
    /// window; then the related messages and users they show, made from where they were noted.
    /// The reader is left after the head.
    private mutating func readHead() throws(BinaryDecodingError) -> [Message] {
        headRead = true
        windowMessageCount = try reader.readCount()
        headCount = min(count, windowMessageCount)
        var messages: [Message] = []
        messages.reserveCapacity(headCount)
        try messages.append(readingFrom: reader, indices: 0 ..< headCount)
        restOffset = reader.cursor

        let originals = TimelinePage.originalIDs(shownWith: messages)
        related = try read(at: relatedOffsets, whoseIDIsIn: UTF8IDSet(originals), field: "related")
        // An original that is not among the related messages is one of the window's own, after
        // the head (a boost of a post the timeline also holds): read on until each is found.
        var missing = originals.subtracting(related.map(\.id))
        if !missing.isEmpty {
            let wanted = UTF8IDSet(missing)
            var scratch = Message.blank
            jump(to: restOffset)
            for index in headCount ..< windowMessageCount where !missing.isEmpty {
                do {
                    if try reader.peekString({ wanted.contains($0) }) {
                        let original = try Message.read(from: reader)
                        missing.remove(original.id)
                        messages.append(original)
                    } else {
                        try Message.skip(in: reader, scratch: &scratch)
                    }
                } catch {
                    throw error.prefixed(with: IndexCodingKey(index))
                }
            }
        }
        var shownUsers = UTF8IDSet()
        for message in messages + related {
            shownUsers.insert(message.authorID)
            if let id = message.replyToUserID { shownUsers.insert(id) }
        }
        users = try read(at: userOffsets, whoseIDIsIn: shownUsers, field: "users")
        jump(to: restOffset)
        return messages
    }

    /// Moves the reader to `offset`, which it reached before: back to it, or on to it past the
    /// records made since.
    private func jump(to offset: Int) {
        if offset <= reader.cursor { reader.rewind(to: offset) } else { reader.move(to: offset) }
    }

    /// The records at `offsets` whose ID is in `ids`, in order. The ID is compared where it lies
    /// in the payload: no `String` is made of the others.
    private func read<Record: BinaryRecord>(
        at offsets: [Int], whoseIDIsIn ids: UTF8IDSet, field: String
    ) throws(BinaryDecodingError) -> [Record] {
        var records: [Record] = []
        guard !ids.isEmpty else { return records }
        for (index, offset) in offsets.enumerated() {
            do {
                jump(to: offset)
                if try reader.peekString({ ids.contains($0) }) {
                    records.append(try Record.read(from: reader))
                }
            } catch {
                throw error.prefixed(with: IndexCodingKey(index)).prefixed(with: BinaryCodingKey(stringValue: field))
            }
        }
        return records
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
