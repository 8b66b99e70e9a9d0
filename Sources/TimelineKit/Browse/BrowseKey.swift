/// One key a person pressed in `timeline browse`, decoded from the bytes a terminal sends
/// (`BrowseKeyDecoder`): a character, a named key (arrows, page keys) or a control key.
package enum BrowseKey: Sendable, Hashable {
    /// A printable character (`j`, `/`, `é`).
    case character(Character)
    /// A control key: `control("f")` is Ctrl-F (the byte 0x06).
    case control(Character)
    case up, down, left, right
    case pageUp, pageDown, home, end
    /// Return or Enter.
    case enter
    /// Escape pressed alone (not the start of a sequence).
    case escape
    case backspace
    /// A sequence the view does not use (a function key, a mouse report): ignored, never typed.
    case unknown
}
