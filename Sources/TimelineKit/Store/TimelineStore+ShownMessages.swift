extension TimelineStore {
    /// Marks read what a person saw: the messages `shown` (IDs from `page`), and the posts they
    /// repost or quote, which are shown inside them. One statement; IDs that are not stored are
    /// ignored. Returns how many messages changed.
    ///
    /// ```swift
    /// let page = try store.timeline(limit: 20)
    /// print(page)                                         // what the person sees
    /// try store.markShownRead(page.messages.map(\.id), of: page)
    /// ```
    @discardableResult
    public func markShownRead(_ shown: some Sequence<String>, of page: TimelinePage) throws(TimelineStoreError) -> Int {
        let messages = page.messagesByID
        var ids: [String] = []
        for id in shown {
            ids.append(id)
            if let original = messages[id]?.repostOfID { ids.append(original) }
            if let quoted = messages[id]?.quoteOfID { ids.append(quoted) }
        }
        return try markRead(ids: ids)
    }
}
