import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineFeeds
import TimelineKit

struct SubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscribe",
        abstract: "Subscribe to a feed (RSS, Atom, JSON Feed), or the feed a web page names.",
        discussion: """
            Fetches the feed once and stores its items in the timeline, then says the feed's \
            title and how many items it had. URL is the feed itself or an HTML page that links \
            to one (<link rel="alternate">): the subscription keeps the feed's URL. The name \
            (for `timeline unsubscribe`) is the feed's host unless --name gives one. \
            Subscribing again to a feed you have changes nothing.
            Exit status: 65 when URL is not a feed nor a page naming one, 69 when it cannot be \
            fetched; nothing is stored then.

            Example:
              timeline subscribe https://example.com/ --name example
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The feed's URL, or a page that names it.")
    var url: String

    @Option(name: .long, help: "The name to call the subscription by (default: the feed's host).")
    var name: String?

    func run() throws {
        let store = try location.openStore(create: true)
        let subscriptions = FeedSubscriptions(store: store)
        let (url, name) = (url, name)
        let outcome: FeedSubscribeOutcome
        do {
            outcome = try waitFor { () async throws -> FeedSubscribeOutcome in
                try await subscriptions.subscribe(to: url, name: name, fetcher: FeedFetcher(transport: CurlTransport()))
            }
        } catch let error as FeedSubscriptionError {
            // URLs a page or a redirect named, and a feed's own words, are not ours: neutralised.
            Terminal.emitError("timeline: \(TerminalText.line(error.description))\n")
            throw ExitCode(exitStatus(for: error))
        } catch {
            throw fail(error)
        }
        switch outcome {
        case let .subscribed(subscription, items):
            let title = TerminalText.line(subscription.title ?? subscription.url)
            Terminal.emit("Subscribed to \(title) as \(TerminalText.line(subscription.name)): \(Counted(items, "item")).\n")
        case let .alreadySubscribed(subscription):
            Terminal.emit("Already subscribed to \(TerminalText.line(subscription.url)) as \(TerminalText.line(subscription.name)).\n")
        }
    }
}

struct SubscriptionsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "subscriptions",
        abstract: "List the feeds you subscribe to.",
        discussion: """
            One line per subscription: its name, URL and title, when it was last fetched, and \
            what went wrong then, if anything. --json prints one JSON object per subscription \
            (name, url, title, home_url, last_fetch, problem).

            Example:
              timeline subscriptions --json | jq -r .url
            """)

    @OptionGroup var location: LocationOptions

    @Flag(name: .long, help: "Print JSON Lines, one object per subscription.")
    var json = false

    func run() throws {
        let path = try location.location().databasePath
        // No database yet: no subscriptions, not an error.
        let all = FileManager.default.fileExists(atPath: path)
            ? try reportingErrors { try FeedSubscriptions(store: location.openStore(create: false)).all() } : []
        if all.isEmpty && !json {
            Terminal.emit("No subscriptions. Subscribe with: timeline subscribe URL\n")
            return
        }
        let ages = RelativeTime(now: Date())
        for subscription in all {
            if json {
                var object = JSONObjectWriter()
                object.add("name", subscription.name)
                object.add("url", subscription.url)
                object.add("title", subscription.title)
                object.add("home_url", subscription.homeURL)
                object.add("last_fetch", subscription.lastFetch.map { $0.formatted(.iso8601) })
                object.add("problem", subscription.problem)
                Terminal.emit(object.finish() + "\n")
            } else {
                let title = subscription.title.map { "  " + TerminalText.line($0) } ?? ""
                Terminal.emit("\(TerminalText.line(subscription.name))  \(TerminalText.line(subscription.url))\(title)\n")
                let fetched = subscription.lastFetch.map { "last fetched \(ages.phrase(since: $0))" } ?? "never fetched"
                Terminal.emit("  \(fetched)\(subscription.problem.map { "; the last fetch failed: " + TerminalText.line($0) } ?? "")\n")
            }
        }
    }
}

struct UnsubscribeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "unsubscribe",
        abstract: "Stop following a feed and remove its items from the timeline.",
        discussion: """
            Removes the subscription named NAME (or with the URL given) and every item it \
            brought into the timeline, read or not: subscribe again to get them back.

            Example:
              timeline unsubscribe example
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The subscription's name or URL, as `timeline subscriptions` lists them.")
    var subscription: String

    func run() throws {
        let store = try location.openStore(create: false)
        let (subscription, removed) = try reportingErrors { try FeedSubscriptions(store: store).unsubscribe(self.subscription) }
        Terminal.emit("Unsubscribed from \(TerminalText.line(subscription.name)); \(Counted(removed, "item")) removed from the timeline.\n")
    }
}
