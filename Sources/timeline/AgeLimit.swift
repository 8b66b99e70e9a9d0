import TimelineKit

/// How old a message must be for `timeline prune --older-than` to remove it, and how old the last
/// sync may be for `sync --if-older` and the shell hook's `show --sync-if-older`: a whole number
/// and one unit, `90m`, `12h`, `30d`, `2w` or `1y` (365 days). Calendar months are left out on
/// purpose: their length varies, and `30d` says exactly what is meant.
///
/// Read byte by byte, with the units in a `switch`: the shell hook's `show` reads one at every
/// terminal start, and a dictionary keyed by `Character` cost that launch 290 k instructions
/// (4.6% of `show`; callgrind, issue 28) to build and hash, for five entries.
struct AgeLimit: Equatable {
    let seconds: Int64
    private let count: Int
    private let unitName: String

    /// `30 days`, `1 hour`: the limit as a person reads it.
    var text: String { Counted(count, unitName).description }

    /// `nil` unless `text` is a positive whole number (at most 9 digits) followed by one of the units.
    init?(_ text: String) {
        let bytes = text.utf8
        guard let unit = bytes.last, bytes.count >= 2, bytes.count <= 10 else { return nil }
        let unitSeconds: Int64
        switch unit {
        case UInt8(ascii: "m"): (unitSeconds, unitName) = (60, "minute")
        case UInt8(ascii: "h"): (unitSeconds, unitName) = (3600, "hour")
        case UInt8(ascii: "d"): (unitSeconds, unitName) = (86_400, "day")
        case UInt8(ascii: "w"): (unitSeconds, unitName) = (604_800, "week")
        case UInt8(ascii: "y"): (unitSeconds, unitName) = (31_536_000, "year")
        default: return nil
        }
        var count: Int64 = 0
        for byte in bytes.dropLast() {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            count = count * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        guard count > 0 else { return nil }
        self.count = Int(count)
        self.seconds = count * unitSeconds
    }

    static let usage = "a whole number and a unit: 90m (minutes), 12h (hours), 30d (days), 2w (weeks) or 1y (365 days)"
}
