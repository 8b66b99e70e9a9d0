import ArgumentParser
import TimelineKit

/// The root of the command tree. `timeline` alone is `timeline show`.
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "A timeline in your terminal, shown the instant it opens.",
        discussion: """
            Add `eval "$(timeline init bash)"` to ~/.bashrc (zsh: `timeline init zsh`; fish: \
            `timeline init fish | source`) to see the timeline in every new terminal. `show` \
            paints from a snapshot file without opening the database, then checks the database \
            and updates what changed.

            Data lives in $TIMELINE_DB, else $XDG_DATA_HOME/timeline/timeline.sqlite, else \
            ~/.local/share/timeline/timeline.sqlite (or --db PATH on any command).

            Examples:
              timeline import Fixtures/sample-timeline.jsonl
              timeline
              timeline show -n 5 --json
            """,
        version: timelineKitVersion,
        subcommands: [
            ShowCommand.self, ImportCommand.self, ExportCommand.self, PostCommand.self, UserCommand.self,
            MarkReadCommand.self, DeleteCommand.self, PruneCommand.self, SnapshotCommand.self, StatsCommand.self,
            SearchCommand.self, DoctorCommand.self, VacuumCommand.self, UpgradeCommand.self, InitCommand.self,
            LoginCommand.self, AccountsCommand.self, LogoutCommand.self, SyncCommand.self, ThreadCommand.self,
        ],
        defaultSubcommand: ShowCommand.self)
}
