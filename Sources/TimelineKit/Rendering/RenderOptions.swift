/// How `TimelineRenderer` lays out a timeline.
public struct RenderOptions: Sendable, Hashable {
    /// The narrowest layout; smaller widths are rendered at this width.
    public static let minimumWidth = 20

    /// The terminal's width in columns. No rendered line is wider (below `minimumWidth`, lines
    /// are `minimumWidth` wide and the terminal wraps them).
    public var width: Int
    /// Whether to style the output with SGR escape sequences (bold, dim, a colour for the unread
    /// marker). Off, the output holds no escape character at all.
    public var color: Bool
    /// Whether unread messages get a `●` in the first column. Read ones get a space, so the
    /// layout is the same either way.
    public var showsUnreadMarker: Bool
    /// Whether text behind a content warning is shown under the warning. Off (the default),
    /// the text is replaced by a one-line note of its length, as the author asked.
    public var revealsContentWarnings: Bool
    /// The decorations: Unicode, or ASCII for a terminal that does not show UTF-8
    /// (`RenderSymbols.forLocale`).
    public var symbols: RenderSymbols

    /// Options for a terminal `width` columns wide. By default colour is off, unread messages
    /// are marked, text behind content warnings stays hidden, and the symbols are Unicode.
    public init(width: Int = 80, color: Bool = false, showsUnreadMarker: Bool = true, revealsContentWarnings: Bool = false,
                symbols: RenderSymbols = .unicode) {
        self.width = width
        self.color = color
        self.showsUnreadMarker = showsUnreadMarker
        self.revealsContentWarnings = revealsContentWarnings
        self.symbols = symbols
    }
}
