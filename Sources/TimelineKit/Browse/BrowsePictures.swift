/// The pictures of one entry as `timeline browse`'s `p` shows them: each picture's address and
/// alt text, and, once the program has fetched and checked it, whether it is drawn or why not.
///
/// Only attachments of kind `image` are pictures here (a video or an audio file is not drawn);
/// at most ``shownLimit`` are shown, as a post of either network holds no more.
package struct BrowsePictures: Sendable, Hashable {
    /// One picture.
    package struct Item: Sendable, Hashable {
        /// Where the picture lives, as the server said (checked before any fetch).
        package var url: String?
        /// The alt text as the server sent it (neutralised where it is shown).
        package var altText: String?
        /// Why the picture is not drawn (offline, refused, no way to draw it), in one line;
        /// `nil` when it is drawn or nothing was tried.
        package var problem: String?

        package init(url: String?, altText: String?, problem: String? = nil) {
            self.url = url
            self.altText = altText
            self.problem = problem
        }
    }

    /// The pictures shown, in the post's order.
    package var items: [Item]
    /// How many more images the post has than are shown.
    package var notShown: Int
    /// Whether the program draws pictures in the rectangles of ``BrowsePictureLayout``; without,
    /// the screen lists the alt texts and the keys that open each picture.
    package var drawsPictures = false

    /// The most pictures shown: what a post holds on either network (``MediaLimits/picturesPerPostLimit``).
    package static let shownLimit = MediaLimits.picturesPerPostLimit

    /// The images of `message`'s attachments (kind `image`), at most ``shownLimit``; `nil` when
    /// it has none.
    package init?(of message: Message) {
        let images = message.attachments.filter { $0.kind == "image" }
        guard !images.isEmpty else { return nil }
        items = images.prefix(Self.shownLimit).map { Item(url: $0.url, altText: $0.altText) }
        notShown = images.count - items.count
    }

    package init(items: [Item], notShown: Int = 0, drawsPictures: Bool = false) {
        self.items = Array(items.prefix(Self.shownLimit))
        self.notShown = notShown + max(0, items.count - Self.shownLimit)
        self.drawsPictures = drawsPictures
    }

    /// The line under picture `index` (0-based): its number (the key that opens it), its alt
    /// text neutralised or "no description", and why it is not drawn.
    package func caption(of index: Int) -> String {
        let item = items[index]
        let alt = item.altText.map(TerminalText.line).flatMap { $0.isEmpty ? nil : $0 }
        var text = "\(index + 1)  " + (alt ?? "no description (the author gave no alt text)")
        if let problem = item.problem { text += " · " + TerminalText.line(problem) }
        return text
    }
}
