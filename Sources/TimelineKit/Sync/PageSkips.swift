/// The entries of a server's pages that could not be read and were left out: how many, and
/// the first one's reason, which a sync says once (`SyncSummary.skippedEntries`) rather than
/// losing the page, the account's other timelines and its read marker to one entry (issue 24).
struct PageSkips: Sendable, Hashable {
    /// Entries left out.
    var count = 0
    /// Where and why the first one was: the URL and the place in its body.
    var firstReason: String?

    mutating func add(url: String, problem: String) {
        count += 1
        if firstReason == nil { firstReason = "\(url): \(problem)" }
    }

    mutating func add(_ other: PageSkips) {
        count += other.count
        if firstReason == nil { firstReason = other.firstReason }
    }
}
