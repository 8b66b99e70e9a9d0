/// The favourites, boosts and bookmarks of the person's accounts (`message_interactions`,
/// migration 10): set by an action (``AccountSession/act(_:on:in:at:)``) from the server's answer,
/// read by every page (``TimelinePage/interactions``).
extension TimelineTransaction {
    /// Sets (`on`) or clears `kind` of `messageID` for `account`, keeping `record` (Bluesky's
    /// like or repost record URI, which the undo deletes) or forgetting it when `nil`, and moves
    /// the generation so that a snapshot painted before is seen to be stale.
    public func setInteraction(
        account: String, messageID: String, _ kind: MessageInteraction.Kind, on: Bool, record: String? = nil
    ) throws(TimelineStoreError) {
        let column = switch kind {
        case .favourite: "favourited"
        case .boost: "boosted"
        case .bookmark: "bookmarked"
        }
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            // The record is kept under the kind's name in one JSON object per row.
            let statement = try connection.statement("""
                INSERT INTO message_interactions (message_id, account, \(column), records)
                VALUES (?1, ?2, ?3, CASE WHEN ?4 IS NULL THEN NULL ELSE json_object(?5, ?4) END)
                ON CONFLICT (message_id, account) DO UPDATE SET \(column) = ?3,
                    records = CASE WHEN ?4 IS NULL THEN json_remove(coalesce(records, '{}'), '$.' || ?5)
                                   ELSE json_set(coalesce(records, '{}'), '$.' || ?5, ?4) END
                """)
            defer { statement.reset() }
            try statement.bind(messageID, at: 1)
            try statement.bind(account, at: 2)
            try statement.bind(on, at: 3)
            try statement.bind(record, at: 4)
            try statement.bind(kind.rawValue, at: 5)
            try statement.run()
            // A row with nothing set says nothing: it goes.
            try connection.execute("""
                DELETE FROM message_interactions WHERE favourited = 0 AND boosted = 0 AND bookmarked = 0
                    AND (records IS NULL OR records = '{}')
                """)
            try connection.execute("UPDATE timeline_state SET generation = generation + 1 WHERE singleton = 1")
        }
    }
}

extension TimelineTransaction {
    /// Sets `account`'s favourite, boost and bookmark of `interaction.messageID` to what the
    /// server said (a sync's page: `DecodedTimeline/interactions`), records kept; moves the
    /// generation only when that changed something, so a page the server sent as before
    /// leaves the snapshot fresh.
    public func replaceInteraction(account: String, _ interaction: MessageInteraction) throws(TimelineStoreError) {
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            let statement = try connection.statement(interaction.isEmpty ? """
                UPDATE message_interactions SET favourited = 0, boosted = 0, bookmarked = 0
                WHERE message_id = ?1 AND account = ?2 AND (favourited OR boosted OR bookmarked)
                """ : """
                INSERT INTO message_interactions (message_id, account, favourited, boosted, bookmarked)
                VALUES (?1, ?2, ?3, ?4, ?5)
                ON CONFLICT (message_id, account) DO UPDATE SET
                    favourited = excluded.favourited, boosted = excluded.boosted, bookmarked = excluded.bookmarked
                WHERE favourited IS NOT excluded.favourited OR boosted IS NOT excluded.boosted
                    OR bookmarked IS NOT excluded.bookmarked
                """)
            defer { statement.reset() }
            try statement.bind(interaction.messageID, at: 1)
            try statement.bind(account, at: 2)
            if !interaction.isEmpty {
                try statement.bind(interaction.favourited, at: 3)
                try statement.bind(interaction.boosted, at: 4)
                try statement.bind(interaction.bookmarked, at: 5)
            }
            try statement.run()
            guard connection.changes > 0 else { return }
            try connection.execute("UPDATE timeline_state SET generation = generation + 1 WHERE singleton = 1")
        }
    }

    /// What `account` has done to `messageID` as stored in this transaction, and its records.
    func interaction(account: String, messageID: String) throws(TimelineStoreError) -> (MessageInteraction, records: [String: String]) {
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            try TimelineReader(connection: connection).interaction(account: account, messageID: messageID)
        }
    }

    /// The stored message `id`, as this transaction sees it.
    func message(id: String) throws(TimelineStoreError) -> Message? {
        try connection.reportingStoreErrors { () throws(SQLiteError) in
            try TimelineReader(connection: connection).messages(ids: [id]).first
        }
    }
}

extension TimelineStore {
    /// Sets or clears `kind` of `messageID` for `account` in one transaction; see
    /// ``TimelineTransaction/setInteraction(account:messageID:_:on:record:)``.
    public func setInteraction(
        account: String, messageID: String, _ kind: MessageInteraction.Kind, on: Bool, record: String? = nil
    ) throws(TimelineStoreError) {
        try storeWrite { transaction throws(TimelineStoreError) in
            try transaction.setInteraction(account: account, messageID: messageID, kind, on: on, record: record)
        }
    }

    /// What `account` has done to `messageID` as stored, and the records kept for it, by the
    /// raw value of their ``MessageInteraction/Kind`` (`favourite`: a like's URI, `boost`).
    public func interaction(account: String, messageID: String) throws(TimelineStoreError) -> (MessageInteraction, records: [String: String]) {
        try read { reader throws(SQLiteError) in try reader.interaction(account: account, messageID: messageID) }
    }

    /// The stored messages for which `account` has `kind` set, newest first.
    public func interactions(of kind: MessageInteraction.Kind, account: String) throws(TimelineStoreError) -> [String] {
        try read { reader throws(SQLiteError) in try reader.messageIDs(withInteraction: kind, account: account) }
    }
}

extension TimelineReader {
    /// The interactions of `ids`, every account's merged, for the messages that have any. A
    /// database this library has not migrated yet (one that cannot be written) has none.
    func interactions(ids: some Collection<String>) throws(SQLiteError) -> [MessageInteraction] {
        guard !ids.isEmpty, let statement = try? connection.statement("""
            SELECT message_id, max(favourited), max(boosted), max(bookmarked) FROM message_interactions
            WHERE message_id IN (SELECT value FROM json_each(?1)) GROUP BY message_id ORDER BY message_id
            """) else { return [] }
        defer { statement.reset() }
        try statement.bind(SQLiteJSONArray(ids), at: 1)
        var result: [MessageInteraction] = []
        while try statement.step() {
            let interaction = MessageInteraction(messageID: statement.text(at: 0), favourited: statement.bool(at: 1),
                                                 boosted: statement.bool(at: 2), bookmarked: statement.bool(at: 3))
            if !interaction.isEmpty { result.append(interaction) }
        }
        // The actions waiting for their server, in the order they will be sent, over what the
        // servers said: the screen shows what the person asked for, marked as pending. A
        // waiting post's stand-in (`OutboxEntry`) is known by its ID alone: no table is read.
        let pending = try pendingActions(on: ids)
        let waitingPosts = ids.filter(OutboxEntry.isPlaceholder)
        guard !pending.isEmpty || !waitingPosts.isEmpty else { return result }
        var byID = Dictionary(result.map { ($0.messageID, $0) }, uniquingKeysWith: { first, _ in first })
        for id in waitingPosts {
            byID[id, default: MessageInteraction(messageID: id)].pending = true
        }
        for (id, action) in pending {
            var interaction = byID[id] ?? MessageInteraction(messageID: id)
            if let action { interaction[action.kind] = action.sets }
            interaction.pending = true
            byID[id] = interaction
        }
        return byID.values.sorted { $0.messageID < $1.messageID }
    }

    func interaction(account: String, messageID: String) throws(SQLiteError) -> (MessageInteraction, records: [String: String]) {
        let statement = try connection.statement("""
            SELECT favourited, boosted, bookmarked, json_extract(records, '$.favourite'), json_extract(records, '$.boost')
            FROM message_interactions WHERE message_id = ?1 AND account = ?2
            """)
        defer { statement.reset() }
        try statement.bind(messageID, at: 1)
        try statement.bind(account, at: 2)
        guard try statement.step() else { return (MessageInteraction(messageID: messageID), [:]) }
        var records: [String: String] = [:]
        if let like = statement.optionalText(at: 3) { records[MessageInteraction.Kind.favourite.rawValue] = like }
        if let repost = statement.optionalText(at: 4) { records[MessageInteraction.Kind.boost.rawValue] = repost }
        return (MessageInteraction(messageID: messageID, favourited: statement.bool(at: 0), boosted: statement.bool(at: 1),
                                   bookmarked: statement.bool(at: 2)), records)
    }

    func messageIDs(withInteraction kind: MessageInteraction.Kind, account: String) throws(SQLiteError) -> [String] {
        let column = switch kind {
        case .favourite: "favourited"
        case .boost: "boosted"
        case .bookmark: "bookmarked"
        }
        let statement = try connection.statement("""
            SELECT interaction.message_id FROM message_interactions AS interaction
            JOIN messages AS message ON message.id = interaction.message_id
            WHERE interaction.account = ?1 AND interaction.\(column) = 1
            ORDER BY message.created_at DESC, message.id DESC
            """)
        defer { statement.reset() }
        try statement.bind(account, at: 1)
        var result: [String] = []
        while try statement.step() { result.append(statement.text(at: 0)) }
        return result
    }
}

extension TimelineStore {
    /// The stored messages among `ids`, in timeline order, as a page to show: with what they
    /// repost or quote, their authors and the interactions (`timeline bookmarks` paints it).
    public func page(of ids: [String]) throws(TimelineStoreError) -> TimelinePage {
        try read { reader throws(SQLiteError) in try reader.completePage(messages: try reader.messages(ids: ids, visibleOnly: true), nextCursor: nil) }
    }
}
