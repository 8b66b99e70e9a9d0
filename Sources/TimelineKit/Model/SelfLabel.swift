/// A label a Bluesky post's author puts on it (a self-label,
/// `com.atproto.label.defs#selfLabels`): the four the official app offers for a post's pictures,
/// three for adult content and one for graphic media. Bluesky has no written content warning;
/// readers' apps blur the post's media behind the label's name (or hide it, as each reader
/// chose for the label).
public enum SelfLabel: String, Sendable, Hashable, CaseIterable {
    /// Suggestive, sexual content without nudity (`sexual`).
    case sexual
    /// Artistic or non-sexual nudity (`nudity`).
    case nudity
    /// Sexually explicit content (`porn`).
    case porn
    /// Violence, gore or injuries (`graphic-media`): the label `--sensitive` puts on a Bluesky
    /// post, the one warning that is not adult content.
    case graphicMedia = "graphic-media"

    /// The values as typed, for help and refusals: `sexual, nudity, porn or graphic-media`.
    public static var spelled: String {
        let values = allCases.map(\.rawValue)
        return values.dropLast().joined(separator: ", ") + " or " + values[values.count - 1]
    }
}
