/// What the person's own rules make of a message (issue 34), decided when the message is written
/// (a sync, an import, a mute), never at paint time.
public enum ModerationVerdict: Sendable, Hashable {
    /// Painted as it is.
    case shown
    /// Painted with its author line and the reason, not its text, until unfolded (`--expand`,
    /// `browse`'s `z`). `--json` keeps the text and adds `"warning"`.
    case collapsed(reason: String)
    /// Not painted anywhere, and never written into the snapshot.
    case hidden(reason: String)

    /// The stricter of two verdicts: hidden over collapsed over shown; of two of a kind, the
    /// first's reason.
    public func combined(with other: ModerationVerdict) -> ModerationVerdict {
        switch (self, other) {
        case (.hidden, _): self
        case (_, .hidden): other
        case (.collapsed, _): self
        case (_, .collapsed): other
        default: .shown
        }
    }
}
