/// How a `User` maps to a row of the `users` table.
enum UserColumns {
    static let select = "id, handle, name, url, bot"

    /// Inserts a user or updates the stored one in place, only when something differs.
    static let upsert = """
        INSERT INTO users (\(select)) VALUES (?1, ?2, ?3, ?4, ?5)
        ON CONFLICT (id) DO UPDATE SET
            handle = excluded.handle, name = excluded.name, url = excluded.url, bot = excluded.bot
        WHERE (handle, name, url, bot) IS NOT (excluded.handle, excluded.name, excluded.url, excluded.bot)
        """

    static func bind(_ user: User, to statement: SQLiteStatement) throws(SQLiteError) {
        try statement.bind(user.id, at: 1)
        try statement.bind(user.handle, at: 2)
        try statement.bind(user.name, at: 3)
        try statement.bind(user.url, at: 4)
        try statement.bind(user.isBot, at: 5)
    }

    static func user(from row: SQLiteStatement) -> User {
        User(id: row.text(at: 0), handle: row.text(at: 1), name: row.text(at: 2),
             url: row.optionalText(at: 3), isBot: row.bool(at: 4))
    }
}
