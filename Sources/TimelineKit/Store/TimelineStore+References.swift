extension TimelineStore {
    /// The stored IDs `references` name, in their order: each may be a stored ID, a server's
    /// own ID, a post's web address, an AT URI (see `MessageReference`) or the short reference
    /// `show` paints (``ShortReference``), so a person can use the ID their server, its web
    /// page or another client shows, or type three or four letters.
    ///
    /// A stored ID costs one indexed look-up for all of them together; any other form is looked
    /// for among every stored message (a scan: a few tens of milliseconds at a million messages),
    /// so scripts that pass stored IDs pay nothing for the others.
    ///
    /// ```swift
    /// let ids = try store.resolveMessageReferences(["112020325662720152"])
    /// // ["mastodon.social/112020325662720152"]
    /// ```
    ///
    /// - Throws: `.unknownMessages` naming the references that match no stored message (all of
    ///   them, nothing resolved), `.ambiguousMessageReference` for one that matches several.
    public func resolveMessageReferences(_ references: [String]) throws(TimelineStoreError) -> [String] {
        let matches = try read { reader throws(SQLiteError) in try reader.match(references) }
        var resolved: [String] = []
        var unknown: [String] = []
        for (reference, match) in zip(references, matches) {
            switch match {
            case let .found(id): resolved.append(id)
            case .missing: unknown.append(reference)
            case let .ambiguous(ids): throw .ambiguousMessageReference(reference: reference, matches: ids)
            }
        }
        if !unknown.isEmpty { throw .unknownMessages(ids: unknown, given: references.count) }
        return resolved
    }
}

extension TimelineStore {
    /// The message a new post replies to or quotes, named by `reference`: the stored message
    /// it names (as ``resolveMessageReferences(_:)`` finds it), or, when none is stored, the ID
    /// for the account's server to find: `reference` as given (`SERVER/ID`, an AT URI, the
    /// server's own ID), a Mastodon post's web address as `HOST/ID`.
    ///
    /// A reference with the form of a short reference (``ShortReference/sequence(of:)``:
    /// three to twelve of its consonants) names only a stored message, here as in every
    /// action, so a typo is never published as a reply to whatever the server calls `bbq`. A
    /// server's ID that only looks like one is given as `SERVER/ID` or as its web address.
    ///
    /// - Throws: `.unknownMessages` for a short reference that names no stored message,
    ///   `.ambiguousMessageReference`, `.databaseMissing` only for a short reference.
    public func resolvePostTarget(_ reference: String) throws(TimelineStoreError) -> String {
        do {
            return try resolveMessageReferences([reference])[0]
        } catch {
            switch error {
            case .unknownMessages, .databaseMissing:
                if ShortReference.sequence(of: reference) != nil { throw .unknownMessages(ids: [reference], given: 1) }
                if case let .mastodonURL(_, host, id) = MessageReference(reference) { return host + "/" + id }
                return reference
            default:
                throw error
            }
        }
    }

    /// Runs `body` with `references` taken as stored IDs and, when it finds that some name no
    /// stored message (`.unknownMessages`), once more with every reference resolved by
    /// ``resolveMessageReferences(_:)``. Stored IDs, what scripts pass, cost nothing more: ten
    /// thousand IDs marked read take the one statement they always took.
    public func withMessageReferences<T>(
        _ references: [String], _ body: ([String]) throws(TimelineStoreError) -> T
    ) throws(TimelineStoreError) -> T {
        do {
            return try body(references)
        } catch .unknownMessages {
            return try body(resolveMessageReferences(references))
        }
    }
}

extension TimelineReader {
    /// What a reference matched among the stored messages.
    enum ReferenceMatch: Equatable {
        case found(String)
        case missing
        case ambiguous([String])
    }

    func match(_ references: [String]) throws(SQLiteError) -> [ReferenceMatch] {
        let exact = try storedMessageIDs(among: references)
        var result: [ReferenceMatch] = []
        for reference in references {
            if exact.contains(reference) {
                result.append(.found(reference))
                continue
            }
            var candidates = Set<String>()
            switch MessageReference(reference) {
            case .storedID:
                break
            case let .serverID(id):
                // A short reference that names a stored message is that message, found by its
                // key, without the scan of the whole table a server's ID takes (100 ms at 1M
                // messages). No server's IDs are eight letters or fewer and all consonants:
                // Mastodon's are digits, Misskey's ten characters, the others longer.
                if let sequence = ShortReference.sequence(of: id), id.utf8.count <= Self.longestPlainReference,
                   let referenced = try messageID(sequence: sequence) {
                    candidates = [referenced]
                    break
                }
                candidates = try messageIDs(endingWith: "/" + id)
                if let sequence = ShortReference.sequence(of: id), let referenced = try messageID(sequence: sequence) {
                    candidates.insert(referenced)
                }
            case let .mastodonURL(url, host, id):
                candidates = try messageIDs(withURL: url).union(storedMessageIDs(among: [host + "/" + id]))
            case let .blueskyPost(author, recordKey):
                let dids = author.hasPrefix("did:") ? [author] : try users(handle: author.hasPrefix("@") ? String(author.dropFirst()) : author).map(\.id)
                candidates = try storedMessageIDs(among: dids.map { "at://\($0)/app.bsky.feed.post/\(recordKey)" })
            }
            switch candidates.count {
            case 0: result.append(.missing)
            case 1: result.append(.found(candidates.first!))
            default: result.append(.ambiguous(candidates.sorted()))
            }
        }
        return result
    }

    /// The longest short reference taken as one without looking for a server's ID that ends
    /// the same: eight letters name 25.6 billion messages, more than any store holds.
    static let longestPlainReference = 8

    /// Stored messages whose ID ends with `suffix` (a scan of the table).
    private func messageIDs(endingWith suffix: String) throws(SQLiteError) -> Set<String> {
        // substr with a negative start counts from the end, in characters as length() does; no
        // LIKE, so `_` and `%` in what a person typed are only themselves.
        try messageIDs("SELECT id FROM messages WHERE substr(id, -length(?1)) = ?1 LIMIT 10", binding: suffix)
    }

    /// Stored messages whose web address is `url` (a scan of the table).
    private func messageIDs(withURL url: String) throws(SQLiteError) -> Set<String> {
        try messageIDs("SELECT id FROM messages WHERE url = ?1 LIMIT 10", binding: url)
    }

    /// The IDs a one-parameter query `sql` returns for `value`.
    private func messageIDs(_ sql: String, binding value: String) throws(SQLiteError) -> Set<String> {
        let statement = try connection.statement(sql)
        defer { statement.reset() }
        try statement.bind(value, at: 1)
        var result = Set<String>()
        while try statement.step() { result.insert(statement.text(at: 0)) }
        return result
    }

    /// The stored message with sequence number `sequence` (what a short reference names).
    private func messageID(sequence: Int64) throws(SQLiteError) -> String? {
        let statement = try connection.statement("SELECT id FROM messages WHERE seq = ?1")
        defer { statement.reset() }
        try statement.bind(sequence, at: 1)
        return try statement.step() ? statement.text(at: 0) : nil
    }
}
