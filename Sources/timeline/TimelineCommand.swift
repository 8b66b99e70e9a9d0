import ArgumentParser
import TimelineKit

/// The root of the command tree. `timeline` alone is `timeline show`.
struct TimelineCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timeline",
        abstract: "A timeline in your terminal, shown the instant it opens.",
        discussion: """
            The first day:
              timeline login mastodon example.social   (or: login bluesky HANDLE)
              timeline sync                            fetch your timeline
              timeline                                 read it (timeline show)
              timeline init --help                     the line for your start-up file:
                                                       the timeline in every new terminal

            The shell hook of `timeline init` (bash, zsh, fish) shows the timeline before the \
            first prompt of every new terminal and syncs in the background. `show` paints from a \
            snapshot file without opening the database, then checks the database and updates \
            what changed.

            Data lives in $TIMELINE_DB, else $XDG_DATA_HOME/timeline/timeline.sqlite, else \
            ~/.local/share/timeline/timeline.sqlite (or --db PATH on any command); accounts in \
            $XDG_CONFIG_HOME/timeline/accounts.json (~/.config/timeline/accounts.json).
            """,
        version: timelineKitVersion,
        groupedSubcommands: [
            CommandGroup(name: "Reading", subcommands: [ShowCommand.self, BrowseCommand.self, SearchCommand.self, ThreadCommand.self,
                TagCommand.self, ListCommand.self, ListsCommand.self, FeedsCommand.self, FeedCommand.self, HomeCommand.self,
                ConversationsCommand.self, ChatCommand.self,]),
            CommandGroup(name: "Your accounts", subcommands: [
                LoginCommand.self, SyncCommand.self, PostCommand.self, ScheduledCommand.self, UnscheduleCommand.self,
                AccountsCommand.self, LogoutCommand.self, InitCommand.self,
            ]),
            CommandGroup(name: "Feeds", subcommands: [SubscribeCommand.self, SubscriptionsCommand.self, UnsubscribeCommand.self]),
            CommandGroup(name: "Acting on messages", subcommands: [
                FavouriteCommand.self, UnfavouriteCommand.self, BoostCommand.self, UnboostCommand.self,
                BookmarkCommand.self, UnbookmarkCommand.self, BookmarksCommand.self,
                FollowAccountCommand.self, UnfollowAccountCommand.self, FollowingCommand.self,
                EditCommand.self, VoteCommand.self, OpenCommand.self,
            ]),
            CommandGroup(name: "What you choose not to see", subcommands: [
                MuteCommand.self, UnmuteCommand.self, BlockCommand.self, UnblockCommand.self,
                MutedCommand.self, BlockedCommand.self, ReportCommand.self,
            ]),
            CommandGroup(name: "Your data", subcommands: [
                ImportCommand.self, ExportCommand.self, MarkReadCommand.self, DeleteCommand.self, UserCommand.self, PruneCommand.self,
            ]),
            CommandGroup(name: "Maintenance", subcommands: [
                StatsCommand.self, DoctorCommand.self, SnapshotCommand.self, VacuumCommand.self, UpgradeCommand.self,
            ]),
        ],
        defaultSubcommand: ShowCommand.self)

    /// `--db` before the command's name (`timeline --db other.sqlite import -`) as after it: every
    /// command declares the same `LocationOptions`, and ArgumentParser hands the value read here
    /// to the command's own group.
    @OptionGroup var location: LocationOptions
}
