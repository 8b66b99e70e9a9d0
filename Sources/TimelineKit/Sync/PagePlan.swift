/// Where the entries of a fetched page go in an account's timeline, and how the sync position
/// and gaps move: decided from the page and the stored state alone, inside the transaction that
/// stores the page, so that it always describes what that transaction commits.
///
/// Positions grow with the server's order (newer is larger). The first sync starts at 0 and goes
/// down. A newest page that does not reach the stored newest entry goes `gapSpan` above it, with a
/// gap recorded in between; a gap is filled from its upper end down. IDs are only ever compared
/// for equality: an entry is "reached" when the timeline already holds its ID.
struct PagePlan: Equatable {
    /// An entry of the page to add, by its index in the page, at `position`.
    struct Placement: Equatable {
        var index: Int
        var position: Int64
    }

    /// The entries to add, newest first.
    var placements: [Placement] = []
    /// The new newest entry, when it moves.
    var newTop: (id: String, position: Int64)?
    /// The upper position of a gap that this page fills or closes.
    var removedGap: Int64?
    /// A gap that the page leaves: a new one, or what is left of the one it fills.
    var addedGap: SyncGap?

    /// Room between two separately fetched parts of a timeline: more entries than any gap holds.
    static let gapSpan: Int64 = 1 << 32

    static func == (lhs: PagePlan, rhs: PagePlan) -> Bool {
        lhs.placements == rhs.placements && lhs.newTop?.id == rhs.newTop?.id
            && lhs.newTop?.position == rhs.newTop?.position && lhs.removedGap == rhs.removedGap && lhs.addedGap == rhs.addedGap
    }

    /// The newest page of the timeline (no `max_id`).
    ///
    /// - Parameters:
    ///   - ids: the page's entry IDs, newest first.
    ///   - known: the positions of those the timeline already holds.
    ///   - top: the stored newest entry, `nil` before the first sync.
    ///   - olderCursor: the `max_id` of the next older page, `nil` when there is none.
    ///   - depth: how many entries a first sync keeps.
    ///   - reachesTop: the page was asked for above `top` (`since_id`) and the server had no
    ///     more: its oldest entry is right above `top`, with nothing between.
    ///
    /// Positions come from the database, which another program may have written: they are
    /// moved with saturating arithmetic, so a damaged ledger misplaces entries at its bound
    /// rather than stopping every sync with a trap (issue 33).
    static func forNewest(ids: [String], known: [String: Int64], top: (id: String, position: Int64)?,
                          olderCursor: String?, depth: Int, reachesTop: Bool = false) -> PagePlan {
        var plan = PagePlan()
        let fresh = firstOccurrences(ids)
        guard let top else {
            let kept = Array(fresh.prefix(depth))
            plan.placements = kept.enumerated().map { Placement(index: $0.element, position: -Int64($0.offset)) }
            if let first = kept.first { plan.newTop = (ids[first], 0) }
            if let olderCursor, !kept.isEmpty, depth > kept.count {
                plan.addedGap = SyncGap(upperID: olderCursor, upperPosition: -Int64(kept.count - 1),
                                        lowerID: nil, lowerPosition: nil, remaining: depth - kept.count)
            }
            return plan
        }
        if let reached = fresh.firstIndex(where: { known[ids[$0]] != nil }) ?? (reachesTop ? fresh.count : nil) {
            // Everything above the first entry already held is new, right above the stored top
            // (all of the page, when it was asked for above the top and reaches it).
            let new = fresh[..<reached]
            plan.placements = new.enumerated().map { Placement(index: $0.element, position: top.position.saturatingAdding(Int64(new.count - $0.offset))) }
            if let first = new.first { plan.newTop = (ids[first], top.position.saturatingAdding(Int64(new.count))) }
            return plan
        }
        guard !fresh.isEmpty else { return plan }
        // Nothing held was reached: more is new than one page. The page goes well above the top,
        // and what lies between is a gap, filled from the page down to the old top.
        let base = top.position.saturatingAdding(gapSpan)
        plan.placements = fresh.enumerated().map { Placement(index: $0.element, position: base.saturatingSubtracting(Int64($0.offset))) }
        plan.newTop = (ids[fresh[0]], base)
        if let olderCursor {
            plan.addedGap = SyncGap(upperID: olderCursor, upperPosition: base.saturatingSubtracting(Int64(fresh.count - 1)),
                                    lowerID: top.id, lowerPosition: top.position, remaining: nil)
        }
        return plan
    }

    /// A page fetched inside `gap` (`max_id` its upper end, `since_id` its lower end if any);
    /// `reachesLower` when the server was told the lower end and had no more than the page:
    /// the gap is then filled.
    static func forGap(_ gap: SyncGap, ids: [String], known: [String: Int64], olderCursor: String?,
                       reachesLower: Bool = false) -> PagePlan {
        var plan = PagePlan()
        plan.removedGap = gap.upperPosition
        let fresh = firstOccurrences(ids)
        let reached = fresh.firstIndex { known[ids[$0]] != nil }
        var new = Array(fresh[..<(reached ?? fresh.count)])
        if let remaining = gap.remaining { new = Array(new.prefix(max(0, remaining))) }
        if let lower = gap.lowerPosition {
            // Positions stay above the gap's lower end; a gap never holds 2^32 entries, but a
            // server that sent that many would end the gap here rather than overlap.
            new = Array(new.prefix(Int(clamping: max(0, gap.upperPosition.saturatingSubtracting(lower).saturatingSubtracting(1)))))
        }
        plan.placements = new.enumerated().map { Placement(index: $0.element, position: gap.upperPosition.saturatingSubtracting(1 + Int64($0.offset))) }
        let lowest = plan.placements.last?.position ?? gap.upperPosition
        let remaining = gap.remaining.map { $0.saturatingSubtracting(new.count) }
        let isClosed = reached != nil || reachesLower || olderCursor == nil || olderCursor == gap.upperID
            || remaining.map { $0 <= 0 } == true || gap.lowerPosition.map { lowest.saturatingSubtracting(1) <= $0 } == true
        if !isClosed, let olderCursor {
            plan.addedGap = SyncGap(upperID: olderCursor, upperPosition: lowest, lowerID: gap.lowerID,
                                    lowerPosition: gap.lowerPosition, remaining: remaining)
        }
        return plan
    }

    /// One entry that the event stream delivered (`update`, `notification`). The stream sends
    /// entries as they are added, newest last, so an entry right after one the same connection
    /// placed goes right above it; the first of a connection goes `gapSpan` above the top with a
    /// gap below it, because entries may have come between the last sync and the connection
    /// (the next sync fills it, in one request when nothing did). Into an empty timeline it
    /// goes at 0, with the `depth - 1` entries below it wanted as a first sync wants them. An
    /// entry already held is not placed again.
    static func forStreamed(id: String, known: [String: Int64], top: (id: String, position: Int64)?,
                            continuesConnection: Bool, depth: Int) -> PagePlan {
        var plan = PagePlan()
        guard known[id] == nil else { return plan }
        guard let top else {
            plan.placements = [Placement(index: 0, position: 0)]
            plan.newTop = (id, 0)
            if depth > 1 {
                plan.addedGap = SyncGap(upperID: id, upperPosition: 0, lowerID: nil, lowerPosition: nil, remaining: depth - 1)
            }
            return plan
        }
        if continuesConnection {
            plan.placements = [Placement(index: 0, position: top.position.saturatingAdding(1))]
            plan.newTop = (id, top.position.saturatingAdding(1))
        } else {
            let position = top.position.saturatingAdding(gapSpan)
            plan.placements = [Placement(index: 0, position: position)]
            plan.newTop = (id, position)
            plan.addedGap = SyncGap(upperID: id, upperPosition: position, lowerID: top.id, lowerPosition: top.position, remaining: nil)
        }
        return plan
    }

    /// The indices of `ids` that are the first with their ID: a page that repeats an entry
    /// stores it once.
    private static func firstOccurrences(_ ids: [String]) -> [Int] {
        var seen = Set<String>()
        return ids.indices.filter { seen.insert(ids[$0]).inserted }
    }
}
