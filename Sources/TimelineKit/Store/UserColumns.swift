/// How a `User` maps to a row of the `users` table: its columns declared once, in
/// `visitColumns` below (see `StoredColumns`).
enum UserColumns {
    /// The stored columns: the upsert's parameter `?n` is column `n` (from 1).
    static let table = StoredColumns<User>(table: "users")

    /// The columns a user SELECT returns, in the order `user(from:)` reads them.
    static let select = table.names

    /// Inserts a user or updates the stored one in place, only when something differs: `insert`,
    /// then `update` when the insert changed nothing (`StoredColumns.makeInsert`).
    static let insert = table.makeInsert()
    static let update = table.makeUpdate()

    static func bind(_ user: User, to statement: SQLiteStatement) throws(SQLiteError) {
        try table.bind(user, to: statement)
    }

    static func user(from row: SQLiteStatement) -> User {
        var user = User.blank
        table.read(from: row, into: &user)
        return user
    }
}

extension User: StoredRecord {
    mutating func visitColumns<Visitor: ColumnVisitor>(_ visitor: inout Visitor) throws(Visitor.Failure) {
        try visitor.visit(&id, "id")
        try visitor.visit(&handle, "handle")
        try visitor.visit(&name, "name")
        try visitor.visit(&url, "url")
        try visitor.visit(&isBot, "bot")
    }
}
