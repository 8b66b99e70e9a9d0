import GRDB

/// TimelineKit's end-of-transaction search indexing, as SQL text, for the peers that must do the
/// same work as TimelineKit: GRDB (stage 7) and the sqlite3 shell (stage 10).
///
/// Inside TimelineKit's own write transactions the search triggers only note what changed (while
/// `messages_search_deferred` holds its row), and the transaction indexes it all in one statement
/// per index before COMMIT (`Sources/TimelineKit/Search/SearchIndexBatch.swift`; the search
/// migration says why: row by row, FTS5 flushes at every statement, 40 µs a message). The schema
/// offers the same to any writer. This is that SQL reproduced, not imported: the bench measures
/// from outside, and `DatabaseProbe` checks each peer's index against TimelineKit's instead of
/// trusting the copy.
enum DeferredSearchIndexing {
    static let begin = "INSERT INTO messages_search_deferred (singleton) VALUES (1)"

    /// The TEMP triggers that note what changed while `begin`'s row is there, declared once per
    /// connection before its first deferring transaction, as TimelineKit declares them on its
    /// writer (`SearchIndexBatch.noteTriggers`, migration 19: they are not in the file).
    static let declareNotes = """
        CREATE TEMP TRIGGER IF NOT EXISTS messages_search_insert_noted AFTER INSERT ON main.messages
        WHEN EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
            INSERT INTO messages_search_pending (seq, old_text)
                SELECT NEW.rowid, NULL WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = NEW.rowid);
        END;
        CREATE TEMP TRIGGER IF NOT EXISTS messages_search_update_noted AFTER UPDATE ON main.messages
        WHEN (OLD.text IS NOT NEW.text OR OLD.rowid IS NOT NEW.rowid)
            AND EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
            INSERT INTO messages_search_pending (seq, old_text)
                SELECT OLD.rowid, OLD.text WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = OLD.rowid);
            INSERT INTO messages_search_pending (seq, old_text)
                SELECT NEW.rowid, NULL WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = NEW.rowid);
        END;
        CREATE TEMP TRIGGER IF NOT EXISTS messages_search_delete_noted AFTER DELETE ON main.messages
        WHEN EXISTS (SELECT 1 FROM messages_search_deferred) BEGIN
            INSERT INTO messages_search_pending (seq, old_text)
                SELECT OLD.rowid, OLD.text WHERE NOT EXISTS (SELECT 1 FROM messages_search_pending WHERE seq = OLD.rowid);
        END;
        """

    /// The UTF-8 lead bytes of the scripts written without spaces (`SearchScripts.unspacedPrefixes`).
    private static let unspacedPrefixes = ["E3", "E4", "E5", "E6", "E7", "E8", "E9", "EA", "EB", "EC", "ED",
                                           "E0B8", "E0B9", "E0BA", "E0BB", "E180", "E181", "E182", "E19E", "E19F"]

    /// TimelineKit tests the scripts with a function of its own (`timeline_text_is_unspaced`,
    /// `SearchScripts.holdsUnspaced`). GRDB defines the same (`defineUnspacedFunction`), so it
    /// does the same work; the sqlite3 shell cannot define one, and tests in SQL as the schema's
    /// own view `messages_unspaced` does (for it, the best SQL can do).
    static func finish(withFunction: Bool) -> String {
        let oldTest = withFunction
            ? "timeline_text_is_unspaced(old_text)"
            : "length(old_text) <> length(CAST(old_text AS BLOB)) AND ("
                + unspacedPrefixes.map { "instr(CAST(old_text AS BLOB), X'\($0)')" }.joined(separator: " OR ") + ")"
        let newRows = withFunction
            ? "messages_search_pending AS p CROSS JOIN messages AS m ON m.rowid = p.seq WHERE timeline_text_is_unspaced(m.text)"
            : "messages_search_pending AS p CROSS JOIN messages_unspaced AS m ON m.seq = p.seq"
        return """
            INSERT INTO messages_search (messages_search, rowid, text)
                SELECT 'delete', seq, old_text FROM messages_search_pending WHERE old_text IS NOT NULL;
            INSERT INTO messages_search_unspaced (messages_search_unspaced, rowid, text)
                SELECT 'delete', seq, old_text || char(10, 10) FROM messages_search_pending
                WHERE old_text IS NOT NULL AND \(oldTest);
            INSERT INTO messages_search (rowid, text)
                SELECT m.rowid, m.text FROM messages_search_pending AS p CROSS JOIN messages AS m ON m.rowid = p.seq;
            INSERT INTO messages_search_unspaced (rowid, text)
                SELECT m.seq, m.text || char(10, 10) FROM \(newRows);
            DELETE FROM messages_search_pending;
            DELETE FROM messages_search_deferred;
            """
    }

    /// `timeline_text_is_unspaced` for GRDB: the same test as TimelineKit's, in Swift.
    static let unspacedFunction = DatabaseFunction("timeline_text_is_unspaced", argumentCount: 1, pure: true) { values in
        guard let text = String.fromDatabaseValue(values[0]) else { return nil }
        var bytes = text
        return bytes.withUTF8 { utf8 in
            var index = 0
            while index < utf8.count {
                let byte = utf8[index]
                index += 1
                guard byte >= 0xE0, byte <= 0xED else { continue }
                if byte >= 0xE3 { return true }
                guard index < utf8.count else { continue }
                let next = utf8[index]
                if byte == 0xE0, (0xB8 ... 0xBB).contains(next) { return true }
                if byte == 0xE1, (0x80 ... 0x82).contains(next) || (0x9E ... 0x9F).contains(next) { return true }
            }
            return false
        }
    }
}
