/// How a terminal draws pictures, as its own answers say (``TerminalGraphicsAnswers``), never
/// guessed from `TERM`: a multiplexer or an ssh hop keeps `TERM` and changes what is possible.
/// Ordered by preference: kitty's protocol takes a PNG as it is and deletes it again
/// cleanly; iTerm2's takes any file as it is; sixel needs every picture decoded (by `chafa`).
package enum TerminalGraphics: Int, Sendable, Hashable, Comparable, CustomStringConvertible {
    /// No pictures: the alt texts are listed.
    case none
    /// DEC sixel graphics (DA1 parameter 4).
    case sixel
    /// iTerm2's inline images (`OSC 1337 ; File=`), which WezTerm also draws.
    case iTerm2
    /// The kitty graphics protocol (kitty, Ghostty, WezTerm, Konsole…).
    case kitty

    package static func < (left: TerminalGraphics, right: TerminalGraphics) -> Bool { left.rawValue < right.rawValue }

    package var description: String {
        switch self {
        case .none: "no pictures"
        case .sixel: "sixel"
        case .iTerm2: "iTerm2 inline images"
        case .kitty: "the kitty graphics protocol"
        }
    }
}
