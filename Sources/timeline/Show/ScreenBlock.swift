/// The block of entries `show` paints, and what it takes to paint it again in place: once when
/// the reconcile finds changes, and at each change under `--follow`.
enum ScreenBlock {
    /// Whether a block of `lines` lines is still wholly on a screen of `rows` rows and can be
    /// repainted: one screen row a line (lines wider than the window would have wrapped onto
    /// more rows), and a terminal that can move its cursor (a dumb one cannot).
    static func canRepaint(lines: Int, rows: Int?, width: Int, columns: Int?) -> Bool {
        guard let rows, Terminal.environment("TERM") != "dumb" else { return false }
        return lines < rows && width <= (columns ?? Int.max)
    }

    /// Back to the first line of the block of `lines` lines just above the cursor, erasing from
    /// there down: what is written next replaces the block.
    static func rewind(over lines: Int) -> String {
        "\r" + (lines > 0 ? "\u{1b}[\(lines)A" : "") + "\u{1b}[J"
    }
}
