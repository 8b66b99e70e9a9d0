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
// It stores three forecasts from a station, one of them read; `timeline show --db DATABASE`
// then paints them, marked `weather` where the timeline holds messages of other sources too.

let arguments = CommandLine.arguments
guard arguments.count == 2 else {
    FileHandleOutput.error("usage: weather-station DATABASE")
    exit(64)
}

do {
    let weather = try MessageSource("weather")
    // In this process, a mark of its own; `timeline show`, which does not know it, paints its name.
    MessageSource.register(weather, mark: "☁", asciiMark: "[weather]", label: "Weather")

    let store = try TimelineStore(path: arguments[1])
    let station = User(id: "weather-station", handle: "station", name: "Weather Station", isBot: true)
    // The newest messages of the timeline: the last hours.
    let now = Date()
    let forecasts = ["Rain at noon", "Clearing by evening", "Frost tonight"].enumerated().map { index, text in
        Message(id: "weather/\(index + 1)", authorID: station.id, text: text,
                createdAt: now.addingTimeInterval(Double(index - 3) * 3_600), source: weather)
    }
    try store.write { transaction in
        try transaction.upsert(users: [station])
        try transaction.upsert(messages: forecasts)
    }
    try store.markRead(ids: ["weather/1"])

    let stored = try forecasts.compactMap { forecast in try store.message(id: forecast.id) }.filter { $0.source == weather }
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

/// Standard error without Foundation's FileHandle (FoundationEssentials has none).
enum FileHandleOutput {
    static func error(_ line: String) {
        var text = line + "\n"
        text.withUTF8 { bytes in _ = write(2, bytes.baseAddress, bytes.count) }
    }
}
