import ArgumentParser

/// `timeline browse`: the declaration ArgumentParser reads for help, completions and errors.
/// A usable command line never gets here: `main` reads it by hand (`BrowseRequest`) and starts
/// `BrowseRunner` without ArgumentParser's start-up cost.
///
/// Why a command of its own rather than `show -i`: `show` is the launch path of every terminal
/// and a script's reader, with options (`-n`, `--json`, `--format`, `--follow`, `--mark-read`)
/// that mean nothing in a full-screen view; a separate command keeps both contracts simple and
/// keeps `show`'s reading of its arguments as it is.
struct BrowseCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "browse",
        abstract: "Read the timeline full-screen: move with the keys of less and vim, search, open threads.",
        discussion: """
            Opens from the snapshot as `show` does, then stays: the newest messages first, the \
            selected one marked with a bar on the left. It updates in place when a sync or another \
            terminal writes. ? lists the keys; q quits. When standard output is not a terminal, \
            it prints what `timeline show` prints.

            Keys: j/k or arrows move, Space/PgDn/Ctrl-F and PgUp/Ctrl-B page, g/G the first and last \
            entry, / searches (what is loaded, else the whole store) and n/N go to the next match, \
            t opens the stored conversation, m marks read (again: unread), u shows unread entries \
            only, o opens the post in $BROWSER (else xdg-open; else the address is shown), f \
            favourites, b boosts and s bookmarks the entry at its server (again: undo), r replies to \
            it in your $EDITOR, z unfolds a content warning, M mutes and B blocks the entry's author \
            and R reports the post (each asks first on the status line), q or Esc goes back from a \
            thread or a search, then quits.

            p shows the entry's pictures with their alt text (1-4 open one in the browser, o the \
            first, any other key goes back): drawn on terminals that answer for the kitty graphics \
            protocol, iTerm2 inline images or sixel (JPEG, GIF and WebP through chafa when \
            installed), else listed. Pictures are fetched without a token and kept in \
            $XDG_CACHE_HOME/timeline/pictures (at most 100 MiB).

            Examples:
              timeline browse
              timeline browse --db demo/timeline.sqlite
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: "Colour: auto, always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .long, help: "Show the text behind content warnings.")
    var expand = false

    func run() throws {
        let request = BrowseRequest(databasePath: location.db, color: color, expand: expand)
        let status = BrowseRunner(request: request).run()
        if status != 0 { throw ExitCode(status) }
    }
}
