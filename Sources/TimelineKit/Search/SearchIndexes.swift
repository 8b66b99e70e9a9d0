/// Upkeep of the full-text indexes (migration 4).
enum SearchIndexes {
    /// Merges each index into one segment. FTS5 records a deleted message as a delete marker in a
    /// new segment and frees its old entries only when segments merge, so after a large prune the
    /// indexes kept most of their pages: a tenth of the messages left, the file not much smaller.
    /// Merging rewrites the indexes (seconds at a million messages), so it runs after a prune and
    /// before a vacuum, never from the automatic upkeep.
    static let optimizeSQL = """
        INSERT INTO messages_search (messages_search) VALUES ('optimize');
        INSERT INTO messages_search_unspaced (messages_search_unspaced) VALUES ('optimize');
        """
}
