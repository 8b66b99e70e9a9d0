#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit
import TimelineFeeds

// The names the documentation's examples take as given: a store, a transport, the bytes of a
// page… declared once here, so that each example (tools/doc-examples/extract puts them in
// Generated.swift beside this file) reads as the page shows it and still compiles. Nothing here
// runs: the examples are compiled, not called (the one that is run is weather-station's).

private func given<Value>() -> Value { fatalError("a documentation example's context is never run") }

let store: TimelineStore = given()
let path: String = given()
let location: TimelineLocation = given()
let transport: any HTTPTransport = given()
let token: String = given()
let typedCode: String = given()
let typedIDs: [String] = given()
let seenIDs: [String] = given()
let body: [UInt8] = given()
let bytes: [UInt8] = given()
let payload: [UInt8] = given()
let url: String = given()
let chunk: [UInt8] = given()
let request: HTTPRequest = given()
let response: HTTPResponse = given()
let requestURL: String = given()
let snapshot: TimelineSnapshot = given()
let page: TimelinePage = given()
let message: Message = given()
let alice: User = given()
let fetched: [Message] = given()
let session: any AccountSession = given()
let subscription: FeedSubscription = given()
let blueskySession: BlueskySession = given()
let error: ServerError = given()
let preview: SnapshotPreview = given()
let sync: MastodonSync = given()
let edited: String = given()
let now: Date = given()
let station: User = given()

func readings(source: MessageSource) -> [Message] { given() }

/// The source the examples of `Account.Network` register (AccountSession's own example writes one).
struct WeatherSession: AccountSession {
    let account: Account
    func sync(into store: TimelineStore, options: SyncOptions) async throws -> SyncSummary { given() }
}

func paint(_ what: Any) {}
func render(_ what: Any) {}
func repaint(_ what: Any, changes: TimelineChanges?) {}
func save(_ session: BlueskySession) {}
func syncEverything() throws -> SyncSummary { given() }
