/// Arithmetic on numbers that came from outside: a server's answer, a file, a header, or the
/// database that other programs may write. Swift traps on overflow, and a trap there is a crash
/// that repeats: a sync that dies on a page never stores it, so the next sync meets the same
/// page and dies again (issue 33: one poll with a vote count above `Int64.max / 100` ended a
/// person's syncing). Such numbers are added, subtracted and multiplied here, where the result
/// stops at the type's bounds: a count of `Int.max` liked once more is still `Int.max`, which is
/// what a terminal can show, and nothing an honest server sends comes near it.
///
/// Numbers the program makes itself (indices, lengths of its own buffers) keep the trapping
/// operators: an overflow there is a bug to be seen, not input to be survived.
extension FixedWidthInteger {
    /// `self + other`, or the bound it passes.
    func saturatingAdding(_ other: Self) -> Self {
        let (sum, overflow) = addingReportingOverflow(other)
        guard overflow else { return sum }
        return other > 0 ? .max : .min
    }

    /// `self - other`, or the bound it passes.
    func saturatingSubtracting(_ other: Self) -> Self {
        let (difference, overflow) = subtractingReportingOverflow(other)
        guard overflow else { return difference }
        return other > 0 ? .min : .max
    }

    /// `self * other`, or the bound it passes.
    func saturatingMultiplied(by other: Self) -> Self {
        let (product, overflow) = multipliedReportingOverflow(by: other)
        guard overflow else { return product }
        return (self < 0) == (other < 0) ? .max : .min
    }
}

extension Int {
    /// `part` as a whole percentage of `whole`, rounded half up: what a poll shows beside an
    /// option. 0 when `whole` is not positive; a `part` beyond `whole` (a server whose counts
    /// disagree) gives more than 100, never a trap, and never more than `Int.max`.
    static func percentage(_ part: Int, of whole: Int) -> Int {
        guard whole > 0, part > 0 else { return 0 }
        let (scaled, overflow1) = part.multipliedReportingOverflow(by: 100)
        let (rounded, overflow2) = scaled.addingReportingOverflow(whole / 2)
        if !overflow1, !overflow2 { return rounded / whole }
        // Only counts beyond 9.2 × 10^16 get here: a double's 53 bits are more than a percentage needs.
        let exact = (Double(part) * 100 / Double(whole)).rounded()
        return exact < 9.2e18 ? Int(exact) : .max
    }
}
