/// Counts as a timeline footer shows them: `999`, `1.2k`, `15k`, `1.1M`, `2B`.
/// Digits are cut, never rounded up, so `999,999` is `999k` and not `1000k`; a `.0` is left out.
enum CompactCount {
    static func string(_ count: Int) -> String {
        switch count {
        case ..<1_000: return String(max(count, 0))
        case ..<10_000: return tenths(count, unit: 1_000, suffix: "k")
        case ..<1_000_000: return "\(count / 1_000)k"
        case ..<10_000_000: return tenths(count, unit: 1_000_000, suffix: "M")
        case ..<1_000_000_000: return "\(count / 1_000_000)M"
        case ..<10_000_000_000: return tenths(count, unit: 1_000_000_000, suffix: "B")
        default: return "\(count / 1_000_000_000)B"
        }
    }

    private static func tenths(_ count: Int, unit: Int, suffix: String) -> String {
        let tenths = count / (unit / 10)
        let fraction = tenths % 10
        return fraction == 0 ? "\(tenths / 10)\(suffix)" : "\(tenths / 10).\(fraction)\(suffix)"
    }
}
