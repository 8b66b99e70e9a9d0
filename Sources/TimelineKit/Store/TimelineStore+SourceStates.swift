/// What a source of messages keeps beside the timeline (a feed's subscriptions, with their
/// validators and last fetch): one JSON document per key, written in the transaction that stores
/// the messages it describes, so the two never disagree.
///
/// Each is a row of `synced_timelines` with the timeline `source:<name>` and the key in
/// `account`, in no table of its own: every schema object costs `show` its parse at launch, and
/// the rows of a timeline no account syncs are read by nothing else (the ledger, the moderation
/// rules and the synced accounts each read their own timelines by name).
enum SourceStateRow {
    static func timeline(of source: MessageSource) -> String { "source:" + source.rawValue }

    static func states(of source: MessageSource, on connection: SQLiteConnection) throws(SQLiteError) -> [String: String] {
        let statement = try connection.statement("SELECT account, state FROM synced_timelines WHERE timeline = ?1")
        defer { statement.reset() }
        try statement.bind(timeline(of: source), at: 1)
        var states: [String: String] = [:]
        while try statement.step() { states[statement.text(at: 0)] = statement.text(at: 1) }
        return states
    }
}

extension TimelineStore {
    /// The state documents `source` stored, by key (see ``TimelineTransaction/setSourceState(_:of:key:)``);
    /// empty when it stored none or there is no database yet.
    ///
    /// ```swift
    /// for (key, json) in try store.sourceStates(of: .feed) { print(key, json) }
    /// ```
    public func sourceStates(of source: MessageSource) throws(TimelineStoreError) -> [String: String] {
        try read { reader throws(SQLiteError) in try SourceStateRow.states(of: source, on: reader.connection) }
    }
}

extension TimelineTransaction {
    /// The state documents `source` stored, by key, as this transaction sees them.
    public func sourceStates(of source: MessageSource) throws(TimelineStoreError) -> [String: String] {
        try sqlite { () throws(SQLiteError) in try SourceStateRow.states(of: source, on: connection) }
    }

    /// Stores `json` as the state of `source` under `key`, replacing what was there, or removes
    /// it when `json` is nil. It commits (or not) with the rest of the transaction: a source
    /// stores its messages and the state that describes them together.
    ///
    /// - Throws: `.sqlite` ("malformed JSON") when `json` is not a JSON document: SQLite's
    ///   `json()` reads it, so a broken document is never stored.
    public func setSourceState(_ json: String?, of source: MessageSource, key: String) throws(TimelineStoreError) {
        try sqlite { () throws(SQLiteError) in
            let statement = try connection.statement(json == nil
                ? "DELETE FROM synced_timelines WHERE account = ?1 AND timeline = ?2"
                : "INSERT OR REPLACE INTO synced_timelines (account, timeline, state) VALUES (?1, ?2, json(?3))")
            defer { statement.reset() }
            try statement.bind(key, at: 1)
            try statement.bind(SourceStateRow.timeline(of: source), at: 2)
            if let json { try statement.bind(json, at: 3) }
            try statement.run()
        }
    }

    /// The IDs of the stored messages whose ID starts with `prefix` (a source's namespace, such as
    /// `feed:7:`), read from the index of message IDs: what a source removes when it is dropped.
    public func messageIDs(startingWith prefix: String) throws(TimelineStoreError) -> [String] {
        try sqlite { () throws(SQLiteError) -> [String] in
            // A range on the ID index: every ID that starts with `prefix` sorts at or after it and
            // before `prefix` followed by the largest code point, which no valid UTF-8 ID passes.
            let statement = try connection.statement(
                "SELECT id FROM messages WHERE id >= ?1 AND id < ?1 || char(1114111) AND substr(id, 1, length(?1)) = ?1")
            defer { statement.reset() }
            try statement.bind(prefix, at: 1)
            var ids: [String] = []
            while try statement.step() { ids.append(statement.text(at: 0)) }
            return ids
        }
    }
}
