import TimelineKit

/// How old a message must be for `timeline prune --older-than` to remove it: a whole number and
/// one unit, `90m`, `12h`, `30d`, `2w` or `1y` (365 days). Calendar months are left out on
/// purpose: their length varies, and `30d` says exactly what is meant.
struct AgeLimit: Equatable {
    let seconds: Int64
    let text: String

    private static let units: [Character: (seconds: Int64, name: String)] = [
        "m": (60, "minute"), "h": (3600, "hour"), "d": (86_400, "day"), "w": (604_800, "week"), "y": (31_536_000, "year"),
    ]

    /// `nil` unless `text` is a positive whole number followed by one of the units.
    init?(_ text: String) {
        guard let unitCharacter = text.last, let unit = Self.units[unitCharacter] else { return nil }
        let digits = text.dropLast()
        guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isNumber),
              let count = Int64(digits), count > 0 else { return nil }
        self.seconds = count * unit.seconds
        self.text = Counted(Int(count), unit.name).description
    }

    static let usage = "a whole number and a unit: 90m (minutes), 12h (hours), 30d (days), 2w (weeks) or 1y (365 days)"
}
