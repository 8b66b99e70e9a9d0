import ArgumentParser
import TimelineKit

// The six action commands of issue 27, each a name (and the names other clients use for it)
// over `MessageActionRequest`, which does the work: favourite/unfavourite (like, unlike),
// boost/unboost (repost, reblog; unrepost, unreblog), bookmark/unbookmark.

/// The arguments every action command takes.
struct MessageActionArguments: ParsableArguments {
    @OptionGroup var location: LocationOptions

    @Argument(help: "Messages: short references (as `show` paints them), stored IDs, servers' own IDs or posts' web addresses.")
    var references: [String] = []

    @Option(name: .long, help: ArgumentHelp("The account to act as (its name in `timeline accounts`); by default the one whose server the message came from.", valueName: "name"))
    var account: String?

    @Flag(name: .long, help: "Print one JSON object per message: {\"action\", \"id\", \"account\", \"favourited\", \"boosted\", \"bookmarked\", \"pending\"}.")
    var json = false

    func request(_ action: MessageAction) -> MessageActionRequest {
        MessageActionRequest(location: location, action: action, references: references, account: account, json: json)
    }
}

struct FavouriteCommand: MessageActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "favourite", abstract: "Favourite (like) messages at their server.",
        discussion: MessageActionRequest.discussion("Favourites the message (Mastodon: favourite; Bluesky: a like).", examples: """
              timeline favourite bkd
              timeline like https://bsky.app/profile/alice.example/post/3kx2abc
            """),
        aliases: ["like", "fav"])
    @OptionGroup var arguments: MessageActionArguments
    func validate() throws { try arguments.request(.favourite).validate() }
    func run() throws { try arguments.request(.favourite).run() }
}

struct UnfavouriteCommand: MessageActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "unfavourite", abstract: "Undo your favourite (like) of messages.",
        discussion: MessageActionRequest.discussion("Takes your favourite back (Bluesky: deletes your like).", examples: """
              timeline unfavourite bkd
            """),
        aliases: ["unlike", "unfav"])
    @OptionGroup var arguments: MessageActionArguments
    func validate() throws { try arguments.request(.unfavourite).validate() }
    func run() throws { try arguments.request(.unfavourite).run() }
}

struct BoostCommand: MessageActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "boost", abstract: "Boost (repost) messages to your followers.",
        discussion: MessageActionRequest.discussion("Boosts the message (Mastodon: reblog; Bluesky: a repost).", examples: """
              timeline boost bkd
              timeline repost 113542871234567890 --account work
            """),
        aliases: ["repost", "reblog"])
    @OptionGroup var arguments: MessageActionArguments
    func validate() throws { try arguments.request(.boost).validate() }
    func run() throws { try arguments.request(.boost).run() }
}

struct UnboostCommand: MessageActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "unboost", abstract: "Undo your boost (repost) of messages.",
        discussion: MessageActionRequest.discussion("Takes your boost back (Bluesky: deletes your repost).", examples: """
              timeline unboost bkd
            """),
        aliases: ["unrepost", "unreblog"])
    @OptionGroup var arguments: MessageActionArguments
    func validate() throws { try arguments.request(.unboost).validate() }
    func run() throws { try arguments.request(.unboost).run() }
}

struct BookmarkCommand: MessageActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "bookmark", abstract: "Bookmark messages at their server (Mastodon).",
        discussion: MessageActionRequest.discussion("Bookmarks the message at its server; `timeline bookmarks` lists them. Bluesky keeps no bookmarks another app can set: a Bluesky post is refused with a message saying so.", examples: """
              timeline bookmark bkd
            """))
    @OptionGroup var arguments: MessageActionArguments
    func validate() throws { try arguments.request(.bookmark).validate() }
    func run() throws { try arguments.request(.bookmark).run() }
}

struct UnbookmarkCommand: MessageActionCommand {
    static let configuration = CommandConfiguration(
        commandName: "unbookmark", abstract: "Remove your bookmark of messages (Mastodon).",
        discussion: MessageActionRequest.discussion("Removes your bookmark of the message at its server.", examples: """
              timeline unbookmark bkd
            """))
    @OptionGroup var arguments: MessageActionArguments
    func validate() throws { try arguments.request(.unbookmark).validate() }
    func run() throws { try arguments.request(.unbookmark).run() }
}

/// The six commands of an action on messages, which share their arguments: their list of
/// words is the references.
protocol MessageActionCommand: WordListCommand {
    var arguments: MessageActionArguments { get set }
}

extension MessageActionCommand {
    var words: [String] {
        get { arguments.references }
        set { arguments.references = newValue }
    }
}
