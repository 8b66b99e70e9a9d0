extension TimelinePager {
    /// Stores the posts of a conversation fetched from the server (`entryIDs`, and what
    /// `timeline` holds with them: authors, quoted posts), as a page is stored: users and
    /// messages inserted or replaced, the account's interactions as the server said them, in one
    /// transaction, and the snapshot rewritten with it. Messages not stored before are stored
    /// read: the person is reading the conversation they asked for, and a thread must not fill
    /// `show --unread` with old replies (`markingRead`; a tag's or a list's timeline, stored
    /// apart, keeps them unread). `also` writes what belongs with the posts (a feed's contexts) in
    /// the same transaction. Answers how many of `entryIDs` were new.
    func storeThread(_ timeline: DecodedTimeline, entryIDs: [String], markingRead: Bool = true,
                     also: (TimelineTransaction) throws(TimelineStoreError) -> Void = { _ in }) throws(ServerError) -> ThreadFetch {
        let prepared = markingRead ? prepare(timeline).markingRead { _ in true } : prepare(timeline)
        return try write(refreshingSnapshot: true) { transaction throws(TimelineStoreError) -> ThreadFetch in
            var new = 0
            for id in entryIDs where try transaction.message(id: id) == nil { new += 1 }
            try transaction.upsert(users: prepared.users)
            try transaction.upsert(messages: prepared.messages)
            for interaction in prepared.interactions {
                try transaction.replaceInteraction(account: account, interaction)
            }
            try transaction.raiseReplyCountsToStoredReplies(around: entryIDs)
            try also(transaction)
            return ThreadFetch(received: entryIDs.count, new: new)
        }
    }
}
