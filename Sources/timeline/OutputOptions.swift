import ArgumentParser
import TimelineKit

extension ColorChoice: ExpressibleByArgument {}

/// `--color` and `--width`, shared by every command that renders a timeline for people (`show`,
/// `search`, `thread`, `bookmarks`, `tag`, `list`), and the one place their renderer is built
/// (`Style.renderer`).
///
/// `--format` is not here: `thread` prints a tree, which one template line per message cannot
/// show, so it has no `--format`; `show` and `search` check theirs with
/// `MessageTemplate.validate(_:json:)`. How wide `--width` must be is each command's to say
/// (`thread` indents replies and needs 20 columns), so this group does not check it.
struct OutputOptions: ParsableArguments {
    @Option(name: .long, help: "Colour: auto, always or never.")
    var color: ColorChoice = .auto

    @Option(name: .long, help: "Wrap to this many columns (default: the terminal's width, else 80).")
    var width: Int?

    /// What was chosen, as a plain value (`show`'s launch reader builds the same without
    /// ArgumentParser).
    var style: Style { Style(color: color, width: width) }

    /// `--color` and `--width` as given: how output for a person is laid out and coloured.
    struct Style: Sendable, Equatable {
        var color = ColorChoice.auto
        var width: Int?

        /// The columns to wrap to: `--width`, else the terminal window's, else 80.
        func columns(window: (columns: Int, rows: Int)?) -> Int {
            width ?? window?.columns ?? 80
        }

        /// The renderer for `columns` (from `columns(window:)`, or fewer for indented text),
        /// in colour when `--color` and the terminal say so.
        func renderer(columns: Int, onTerminal: Bool, revealsContentWarnings: Bool = false) -> TimelineRenderer {
            TimelineRenderer(options: RenderOptions(
                width: columns, color: color.usesColor(onTerminal: onTerminal),
                revealsContentWarnings: revealsContentWarnings, symbols: Terminal.symbols))
        }
    }
}
