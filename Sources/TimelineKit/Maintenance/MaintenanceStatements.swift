/// The SQL of `TimelineStore.prune(olderThan:keepUnread:dryRun:)` and of the health check's
/// counts. Every statement is set-based: a prune of a million messages is a few statements, not a
/// loop over rows in Swift. The same
/// conditions serve the deletes and the dry run's counts, so a dry run says exactly what a prune
/// would do. Parameters: `?1` the cutoff in milliseconds, `?2` 1 to keep unread messages.
///
/// Messages are named by `id`, or by `seq` (an INTEGER PRIMARY KEY, which VACUUM keeps).
enum MaintenanceStatements {
    /// Whether the message row `alias` is unread: the ONE place prune (and `timeline doctor`'s
    /// count check) says so in SQL. Since schema v2 a message is unread when its `seq` is in
    /// `unread_messages`.
    static func isUnread(_ alias: String) -> String {
        "EXISTS (SELECT 1 FROM unread_messages u WHERE u.seq = \(alias).seq)"
    }

    /// Old enough to go, and not an unread message that is to be kept.
    private static func isOld(_ alias: String) -> String {
        "(\(alias).created_at < ?1 AND NOT (?2 AND \(isUnread(alias))))"
    }

    /// Old enough to go, and not reposted or quoted by a message that stays: a repost has no text
    /// of its own, so a recent boost of an old post keeps that post (one level, as the timeline
    /// shows one level). Replies do not keep what they reply to; the renderer shows a reply whose
    /// parent is gone as `↩ reply to @handle`, and a repost whose original is gone as
    /// "(original not available)".
    ///
    /// A notification that stays (a synced account's, see `keptNotification`) keeps the message it
    /// is about: "Alice liked your post …" names a post of yours that may be years old.
    static func isPruned(_ alias: String) -> String {
        """
        (\(isOld(alias)) AND \(alias).id NOT IN (
            SELECT k.repost_of_id FROM messages k WHERE k.repost_of_id IS NOT NULL AND NOT \(isOld("k"))
            UNION ALL
            SELECT k.quote_of_id FROM messages k WHERE k.quote_of_id IS NOT NULL AND NOT \(isOld("k"))
            UNION ALL
            SELECT n.message_id FROM synced_entries n WHERE n.message_id IS NOT NULL AND \(keptNotification("n"))))
        """
    }

    /// A synced account's notification goes with the messages of its time: the cutoff applies to
    /// when it happened.
    static func keptNotification(_ alias: String) -> String {
        "(\(alias).timeline = 'notifications' AND \(alias).created_at >= ?1)"
    }

    /// A notification, in `synced_entries`, that goes.
    private static func prunedNotification(_ alias: String) -> String {
        "(\(alias).timeline = 'notifications' AND NOT \(alias).created_at >= ?1)"
    }

    /// Users that only pruned messages refer to: authors of pruned messages, or users they reply
    /// to, whom no remaining message names as author or as `reply_to_user_id` (the renderer shows
    /// that user's handle). Users no message ever named (your own account before its first post,
    /// imported followers) are not the prune's business and stay.
    private static let orphanedUsers = """
        id IN (SELECT m.author_id FROM messages m WHERE \(isPruned("m"))
               UNION SELECT m.reply_to_user_id FROM messages m
                     WHERE m.reply_to_user_id IS NOT NULL AND \(isPruned("m")))
        AND id NOT IN (SELECT m.author_id FROM messages m WHERE NOT \(isPruned("m"))
                       UNION SELECT m.reply_to_user_id FROM messages m
                             WHERE m.reply_to_user_id IS NOT NULL AND NOT \(isPruned("m"))
                       UNION SELECT n.actor_id FROM synced_entries n
                             WHERE n.actor_id IS NOT NULL AND \(keptNotification("n")))
        """

    /// Runs before `deleteMessages`, in the same transaction: the users' messages are still there
    /// to tell which users go. The foreign key from messages to users is checked at commit.
    static let deleteUsers = "DELETE FROM users WHERE \(orphanedUsers)"
    static let deleteMessages = "DELETE FROM messages WHERE \(isPruned("messages"))"
    static let deleteNotifications = "DELETE FROM synced_entries WHERE \(prunedNotification("synced_entries"))"
    /// Runs after `deleteMessages`: home entries of a synced account whose message is gone. (They
    /// would do no harm, counting as read, but would pile up.)
    static let deleteHomeEntries = """
        DELETE FROM synced_entries
        WHERE timeline = 'home' AND NOT EXISTS (SELECT 1 FROM messages m WHERE m.id = synced_entries.message_id)
        """

    static let countUsers = "SELECT count(*) FROM users WHERE \(orphanedUsers)"
    static let countMessages = "SELECT count(*) FROM messages m WHERE \(isPruned("m"))"
    static let countNotifications = "SELECT count(*) FROM synced_entries n WHERE \(prunedNotification("n"))"
    /// Old unread messages that `keepUnread` keeps (0 without it).
    static let countUnreadKept = "SELECT count(*) FROM messages m WHERE ?2 AND m.created_at < ?1 AND \(isUnread("m"))"
    /// Every unread message, to check the counter the triggers keep.
    static let countUnread = "SELECT count(*) FROM messages m WHERE \(isUnread("m"))"
}
