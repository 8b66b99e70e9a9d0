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
            `timeline sync` fetches it again when it is due: an hour after its last fetch, or \
            --every (30m, 2h, 1d; a minute at least), or longer when the feed's own ttl says so. \
            `subscribe NAME --every 30m` (NAME or URL of a subscription you have) changes the \
            interval of that subscription and fetches nothing.
            Feeds are fetched over https; plain http only from 127.0.0.1, ::1 and localhost.
            Exit status: 65 when URL is not a feed nor a page naming one, 69 when it cannot be \
            fetched, 64 for a plain-http URL beyond this machine; nothing is stored then.

            Examples:
              timeline subscribe https://example.com/ --name example
              timeline subscribe https://example.com/feed.xml --every 6h
              timeline subscribe example --every 30m
            """)

    @OptionGroup var location: LocationOptions

    @Argument(help: "The feed's URL, or a page that names it.")
    var url: String

    @Option(name: .long, help: "The name to call the subscription by (default: the feed's host).")
    var name: String?

    @Option(name: .long, help: ArgumentHelp("How often `timeline sync` fetches it: 30m, 2h, 1d (default 1h).", valueName: "duration"))
    var every: String?

    func validate() throws {
        if let every, AgeLimit(every) == nil {
            throw ValidationError("--every: '\(every)' is not a duration; give \(AgeLimit.usage).")
        }
    }

    func run() throws {
        let store = try location.openStore(create: true)
        let subscriptions = FeedSubscriptions(store: store)
        let (url, name) = (url, name)
        let interval = every.flatMap(AgeLimit.init).map { Duration.seconds($0.seconds) }
        // A subscription's name or URL with --every: a new interval, no fetch.
        if let interval, name == nil, try reportingErrors({ try subscriptions.find(url) }) != nil {
            let changed = try reportingErrors { try subscriptions.setInterval(of: url, to: interval) }
            Terminal.emit("\(TerminalText.line(changed.name)) is fetched every \(AgeLimit(every ?? "")?.text ?? "\(changed.effectiveInterval) seconds") from now on.\n")
            return
        }
        let outcome: FeedSubscribeOutcome
        do {
            outcome = try waitFor { () async throws -> FeedSubscribeOutcome in
                try await subscriptions.subscribe(to: url, name: name, every: interval, fetcher: FeedFetcher(transport: CurlTransport()))
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
            FeedsMarker.note(true, databasePath: store.path)
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
            One line per subscription: its name, URL and title, then when it was last fetched, \
            when `timeline sync` fetches it next, and what went wrong at the last fetch, if \
            anything. --json prints one JSON object per subscription: name, url, title, \
            home_url, last_fetch, next_due (ISO 8601; null: at the next sync), every (seconds \
            between fetches, the feed's own ttl included when longer), problem (null when \
            none), retry_after (when its server asked to wait, else null).

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
        let now = Date()
        let ages = RelativeTime(now: now)
        for subscription in all {
            if json {
                var object = JSONObjectWriter()
                object.add("name", subscription.name)
                object.add("url", subscription.url)
                object.add("title", subscription.title)
                object.add("home_url", subscription.homeURL)
                object.add("last_fetch", subscription.lastFetch.map { $0.formatted(.iso8601) })
                object.add("next_due", subscription.nextDue.map { $0.formatted(.iso8601) })
                object.add("every", subscription.effectiveInterval)
                object.add("problem", subscription.problem)
                object.add("retry_after", subscription.retryAfter.map { $0.formatted(.iso8601) })
                Terminal.emit(object.finish() + "\n")
            } else {
                let title = subscription.title.map { "  " + TerminalText.line($0) } ?? ""
                Terminal.emit("\(TerminalText.line(subscription.name))  \(TerminalText.line(subscription.url))\(title)\n")
                let fetched = subscription.lastFetch.map { "last fetched \(ages.phrase(since: $0))" } ?? "never fetched"
                Terminal.emit("  \(fetched); \(Self.nextFetch(subscription, now: now))"
                    + "\(subscription.problem.map { "; the last fetch failed: " + TerminalText.line($0) } ?? "")\n")
            }
        }
    }
}

extension SubscriptionsCommand {
    /// `next fetched at the next sync`, `next fetched in 40 minutes`, `its server asked to wait
    /// 2 hours`: when `timeline sync` asks for the feed again, in words.
    static func nextFetch(_ subscription: FeedSubscription, now: Date) -> String {
        guard let due = subscription.nextDue, due > now else { return "fetched at the next sync" }
        let wait = due.timeIntervalSince(now)
        let words = wait < 3_600 ? Counted(max(1, Int((wait / 60).rounded(.up))), "minute").description
            : wait < 86_400 ? Counted(Int((wait / 3_600).rounded()), "hour").description
            : Counted(Int((wait / 86_400).rounded()), "day").description
        return subscription.isWaiting(at: now) ? "its server asked to wait: next fetched in \(words)" : "next fetched in \(words)"
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
        FeedsMarker.note((try? FeedSubscriptions(store: store).all().isEmpty) == false, databasePath: store.path)
        Terminal.emit("Unsubscribed from \(TerminalText.line(subscription.name)); \(Counted(removed, "item")) removed from the timeline.\n")
    }
}
