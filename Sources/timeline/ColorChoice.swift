/// `--color auto|always|never`, for every command that renders a timeline (`show`, `search`,
/// `thread`).
enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never

    /// Colour only on a terminal, never with NO_COLOR set (https://no-color.org) or TERM=dumb,
    /// unless `--color` says otherwise.
    func usesColor(onTerminal: Bool) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if Terminal.environment("NO_COLOR").map({ !$0.isEmpty }) == true { return false }
            if Terminal.environment("TERM") == "dumb" { return false }
            return onTerminal
        }
    }
}
