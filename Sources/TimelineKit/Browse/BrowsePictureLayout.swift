/// Where `timeline browse` puts an entry's pictures in a window: a tile per picture (one for
/// one, two side by side for two, a 2 × 2 grid for three or four), in each the picture's cell
/// rectangle at the top and its caption (``BrowsePictures/caption(of:)``), wrapped, under it.
/// Without pictures to draw, the captions are listed one after the other.
///
/// Pure arithmetic on the window's size, so the program that draws only moves the cursor to
/// ``Tile/picture`` and hands its size to the protocol (kitty's `c=`/`r=`, iTerm2's `width`/
/// `height`, `chafa --size`); a picture's aspect ratio is kept by the terminal or by chafa
/// inside that rectangle.
package struct BrowsePictureLayout: Sendable, Hashable {
    /// A rectangle of character cells, 0-based from the window's top left.
    package struct CellRect: Sendable, Hashable {
        package var column: Int
        package var row: Int
        package var columns: Int
        package var rows: Int

        package init(column: Int, row: Int, columns: Int, rows: Int) {
            self.column = column
            self.row = row
            self.columns = columns
            self.rows = rows
        }
    }

    /// One picture's place.
    package struct Tile: Sendable, Hashable {
        /// Where the picture is drawn; `nil` when the tile is too small for one.
        package var picture: CellRect?
        /// The caption's lines (neutralised, each at most the tile's width) and their first row.
        package var caption: [String]
        package var captionRow: Int
        package var column: Int
    }

    /// The tiles, in the pictures' order.
    package var tiles: [Tile]
    /// The screen's lines above the status line, the captions at their places.
    package var lines: [String]

    /// Columns left of every tile, as the list's gutter.
    static let margin = 2
    /// Columns between two tiles side by side.
    static let gap = 2
    /// The smallest picture worth drawing, in cells: below it the caption alone is shown.
    static let minimumPicture = (columns: 8, rows: 3)
    /// The most lines a caption takes under a picture; a longer alt text ends in `…`.
    static let captionLines = 3

    /// The layout of `pictures` in a window of `columns` × `rows` (status line not included).
    package init(_ pictures: BrowsePictures, columns: Int, rows: Int) {
        let count = pictures.items.count
        let gridColumns = count == 1 ? 1 : 2
        let gridRows = count <= 2 ? 1 : 2
        let usable = max(1, columns - Self.margin)
        let tileWidth = max(1, (usable - Self.gap * (gridColumns - 1)) / gridColumns)
        var lines = Array(repeating: "", count: max(0, rows))
        var tiles: [Tile] = []
        if pictures.drawsPictures {
            // One row for a title at the top; the tiles share the rest.
            let tileHeight = max(1, (rows - 1) / gridRows)
            for index in 0..<count {
                let column = Self.margin + (index % gridColumns) * (tileWidth + Self.gap)
                let top = 1 + (index / gridColumns) * tileHeight
                let wrapped = Self.wrap(pictures.caption(of: index), width: tileWidth, lines: Self.captionLines)
                // The caption's rows are kept whatever its length, so that a picture's rectangle
                // does not move when its caption changes (a reason added after the fetch).
                let pictureRows = tileHeight - Self.captionLines - 1
                let fits = pictureRows >= Self.minimumPicture.rows && tileWidth >= Self.minimumPicture.columns
                let picture = fits ? CellRect(column: column, row: top, columns: tileWidth, rows: pictureRows) : nil
                let captionRow = fits ? top + pictureRows : top
                tiles.append(Tile(picture: picture, caption: wrapped, captionRow: captionRow, column: column))
            }
        } else {
            // A list: each caption wrapped to the width, a blank line between two.
            var row = 2
            for index in 0..<count {
                let wrapped = Self.wrap(pictures.caption(of: index), width: usable, lines: Self.captionLines)
                tiles.append(Tile(picture: nil, caption: wrapped, captionRow: row, column: Self.margin))
                row += wrapped.count + 1
            }
        }
        for tile in tiles {
            for (offset, text) in tile.caption.enumerated() where tile.captionRow + offset < lines.count {
                Self.place(text, at: tile.column, in: &lines[tile.captionRow + offset])
            }
        }
        var title = count == 1 ? "1 picture" : "\(count) pictures"
        if pictures.notShown > 0 { title += " (and \(pictures.notShown) more: o opens the post)" }
        title += count == 1 ? ": 1 or o opens it in the browser, any other key goes back"
            : ": 1–\(count) opens one in the browser, o the first, any other key goes back"
        if !lines.isEmpty {
            lines[0] = TextWrapper.truncate(String(repeating: " ", count: Self.margin) + title, toWidth: columns)
        }
        self.tiles = tiles
        self.lines = lines
    }

    /// `text` wrapped to `width`, at most `lines` lines, the last ending in `…` when cut.
    static func wrap(_ text: String, width: Int, lines: Int) -> [String] {
        let wrapped = TextWrapper(width: max(1, width)).wrap(text)
        guard wrapped.count > lines else { return wrapped }
        var kept = Array(wrapped.prefix(lines))
        let last = kept[lines - 1]
        kept[lines - 1] = DisplayWidth.of(last) < width ? last + "…" : TextWrapper.truncate(last + "…", toWidth: width)
        return kept
    }

    /// Puts `text` at display column `column` of `line`, padding with spaces.
    private static func place(_ text: String, at column: Int, in line: inout String) {
        let width = DisplayWidth.of(line)
        if width < column { line += String(repeating: " ", count: column - width) }
        line += text
    }
}
