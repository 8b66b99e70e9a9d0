/// What a JSON Lines import read and what it changed.
public struct ImportSummary: Sendable, Equatable {
    /// Lines read, blank lines included.
    public var lines: Int
    /// Bytes read, line endings and a byte order mark included.
    public var bytes: Int
    /// `user` records read (a user given twice counts twice).
    public var users: Int
    /// `message` records read (a message given twice counts twice).
    public var messages: Int
    /// Users that were not stored before the import.
    public var newUsers: Int
    /// Messages that were not stored before the import.
    public var newMessages: Int
    /// Stored rows (users and messages) that the import changed. A record identical to the stored
    /// row changes nothing, so importing the same file twice reports 0 here the second time.
    public var changedRows: Int

    public init(lines: Int = 0, bytes: Int = 0, users: Int = 0, messages: Int = 0,
                newUsers: Int = 0, newMessages: Int = 0, changedRows: Int = 0) {
        self.lines = lines
        self.bytes = bytes
        self.users = users
        self.messages = messages
        self.newUsers = newUsers
        self.newMessages = newMessages
        self.changedRows = changedRows
    }

    /// Whether the import changed nothing in the database.
    public var changedNothing: Bool { newUsers == 0 && newMessages == 0 && changedRows == 0 }
}
