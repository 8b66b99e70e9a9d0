extension TimelineTransaction {
    /// Raises the reply count of the messages `ids`, and of the messages they reply to, to the
    /// number of their direct replies now stored, where the stored count is lower: a fetched
    /// conversation proves that many replies exist, whatever count the server gave when each
    /// message was last stored (issue 37: after `thread REF` stored a reply, the post still said
    /// `"replies": 0`, because a server's context does not send the post asked about again).
    /// Never lowers a count: replies the store does not hold may exist. One statement; returns
    /// how many messages changed.
    @discardableResult
    func raiseReplyCountsToStoredReplies(around ids: some Sequence<String>) throws(TimelineStoreError) -> Int {
        try sqlite { () throws(SQLiteError) in
            let statement = try connection.statement("""
                UPDATE messages SET reply_count = stored.replies
                FROM (SELECT reply_to_id AS id, count(*) AS replies FROM messages
                      WHERE reply_to_id IN (SELECT value FROM json_each(?1)
                                            UNION SELECT reply_to_id FROM messages WHERE id IN (SELECT value FROM json_each(?1)))
                      GROUP BY reply_to_id) AS stored
                WHERE messages.id = stored.id AND messages.reply_count < stored.replies
                """)
            try statement.bind(SQLiteJSONArray(ids), at: 1)
            try statement.run()
            return connection.changes
        }
    }
}
