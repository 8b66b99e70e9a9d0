#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

// A small program that stores its own kind of message in a timeline database, under a source
// of its own, so that `timeline show` paints them beside the person's other messages.
//
//     weather-station DATABASE
//
// The station is a source of its own: its session syncs three forecasts, one of them read;
// `timeline show --db DATABASE` then paints them, marked `weather` where the timeline holds
// messages of other sources too.

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandleOutput.error("usage: weather-station DATABASE")
    exit(64)
}

do {
    // The station as a source of accounts (issue 35): a session that only syncs, registered with
    // a word, a name and how its session is made. Every other action refuses in one typed way.
    let network = Account.Network("weather", displayName: "Weather") { account, _ in WeatherSession(account: account) }
    try Account.Network.register(network)
    let weather = network.source
    // In this process, a mark of its own; `timeline show`, which does not know it, paints its name.
    MessageSource.register(weather, mark: "☁", asciiMark: "[weather]", label: "Weather")

    // An account of it, as a tool would keep one; the station needs no secret, so none is asked for.
    let account = Account(name: "station", network: network, server: "https://weather.example", accountID: "weather-station",
                          acct: "station", client: nil, secret: .token(AccessToken("unused")!))
    let session = try AccountStore(directory: arguments[1] + ".accounts").session(for: account, transport: CurlTransport())
    guard session.capabilities.actions.isEmpty, let refusal = session.refusal(of: .post) else {
        FileHandleOutput.error("weather-station: a source without actions was given some")
        exit(1)
    }
    print("Posting: \(refusal)")

    let store = try TimelineStore(path: arguments[1])
    _ = try await session.sync(into: store, options: SyncOptions(homeDepth: 3))
    let stored = try (1...3).compactMap { number in try store.message(id: "weather/\(number)") }.filter { $0.source == weather }
    guard stored.count == 3, stored.allSatisfy({ $0.source.label == "Weather" }) else {
        FileHandleOutput.error("weather-station: the store gave back \(stored.count) forecasts, not 3")
        exit(1)
    }
    print("Stored \(stored.count) forecasts as \(weather) in \(arguments[1]).")

    // The example of docs/internals.md, as the page shows it (DocExample.swift), on a database of its own.
    let example = try storeFetchedPosts(databasePath: arguments[1] + ".doc-example.sqlite")
    guard example == ["wx-3", "wx-2", "wx-1"] else {
        FileHandleOutput.error("weather-station: the documentation's example gave \(example)")
        exit(1)
    }
} catch let error as TimelineStoreError {
    // Typed errors say what to do next.
    FileHandleOutput.error("weather-station: \(error)")
    exit(1)
} catch {
    FileHandleOutput.error("weather-station: \(error)")
    exit(1)
}

/// The station's session: the two members every source implements, the account and its sync,
/// which stores three forecasts, one of them read.
struct WeatherSession: AccountSession {
    let account: Account

    func sync(into store: TimelineStore, options: SyncOptions) async throws -> SyncSummary {
        let station = User(id: "weather-station", handle: "station", name: "Weather Station", isBot: true)
        // The newest messages of the timeline: the last hours.
        let now = Date()
        let forecasts = ["Rain at noon", "Clearing by evening", "Frost tonight"].enumerated().map { index, text in
            Message(id: "weather/\(index + 1)", authorID: station.id, text: text,
                    createdAt: now.addingTimeInterval(Double(index - 3) * 3_600), source: account.network.source)
        }
        try store.write { transaction in
            try transaction.upsert(users: [station])
            try transaction.upsert(messages: forecasts)
        }
        try store.markRead(ids: ["weather/1"])
        var summary = SyncSummary(account: account.name)
        summary.newStatuses = forecasts.count
        return summary
    }
}

/// Standard error without Foundation's FileHandle (FoundationEssentials has none).
enum FileHandleOutput {
    static func error(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
