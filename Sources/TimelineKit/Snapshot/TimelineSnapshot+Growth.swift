extension TimelineSnapshot {
    /// The most messages a snapshot grows to by itself when a reader asks for more than it holds
    /// (`timeline show -n 500`): every write rewrites the snapshot, and 1,000 messages keep that
    /// rewrite small. A program that wants more sets the limit itself
    /// (`TimelineStore.writeSnapshot(limit:)`, `timeline snapshot --limit`).
    public static let largestGrownLimit = 1_000

    /// How many messages a snapshot that holds `held` should hold from now on, once a reader
    /// asked for `asked` and it could not answer: `asked`, up to `largestGrownLimit`; `nil` when
    /// it already holds that many, and stays as it is.
    ///
    /// ```swift
    /// let preview = try store.snapshotFile.readPreview(messages: 500)
    /// if !preview.canShow(messages: 500), let grown = TimelineSnapshot.grownLimit(from: preview.limit, asked: 500) {
    ///     try store.writeSnapshot(limit: grown)  // the next reader paints 500 from it
    /// }
    /// ```
    public static func grownLimit(from held: Int, asked: Int) -> Int? {
        let grown = min(asked, largestGrownLimit)
        return grown > held ? grown : nil
    }
}
