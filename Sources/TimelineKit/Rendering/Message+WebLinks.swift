// Beside the renderer rather than in Model/: it reads the text with `WebLinks` (Text/, a
// sibling of Model/), and what a person opens from a message is decided with what is painted.

extension Message {
    /// The links `timeline open REF --link N` chooses from: ``links`` where the source gave
    /// them, else the links written in the text (``WebLinks``), as for a message stored before
    /// links were (issue 37) or one whose source has no anchors (an import, a feed item).
    public var webLinks: [String] {
        links.isEmpty ? WebLinks.find(in: text) : links
    }
}
