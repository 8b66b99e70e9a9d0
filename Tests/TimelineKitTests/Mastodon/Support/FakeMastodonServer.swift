import Foundation
import Synchronization
@testable import TimelineKit

/// A Mastodon server in memory, answering through `HTTPTransport` as the API documents: a home
/// timeline and notifications paged with `max_id`, `since_id`, `min_id` and `limit` and `Link`
/// headers like Mastodon's, the home read marker (with 409 on demand), posting with
/// `Idempotency-Key`, the instance's streaming URL and a scripted event stream. Any request can
/// be made to fail (by its index), so that every fault and every interruption is tested offline.
///
/// Status and account IDs are opaque: random base-36 strings of random lengths, so neither
/// their numeric nor their string order says anything. Only the server's own sequence does.
final class FakeMastodonServer: HTTPTransport, Sendable {
    static let base = "https://social.example"
    /// The server's address; two servers made alike hold the same IDs.
    let base: String

    enum Fault: Sendable {
        /// Answers with this status (and headers, body) instead.
        case status(Int, headers: [HTTPHeader] = [], body: String = "")
        /// The transport times out.
        case timeout
        /// The connection breaks in the middle of the answer.
        case cut
        /// A 200 whose body stops halfway.
        case truncatedBody
        /// The request is carried out, but its answer is lost on the way back.
        case lostAnswer
    }

    struct Status: Sendable {
        var id: String
        var sequence: Int
        var author: Int
        var text: String
        var createdAt: Int
        var editedAt: Int?
        var boosted: Int?  // index into the server's statuses of the boosted one
        var spoiler = ""
        var replyTo: String?  // the server ID of the status it answers
        var visibility = "public"
        var mediaIDs: [String] = []
    }

    struct Notification: Sendable {
        var id: String
        var sequence: Int
        var type: String
        var actor: Int
        var status: Int?  // index into statuses
        var createdAt: Int
    }

    struct State: Sendable {
        var statuses: [Status] = []            // every status ever, by creation
        var home: [Int] = []                   // indices into statuses, oldest first
        var deleted = Set<Int>()
        var notifications: [Notification] = []  // oldest first
        var marker: (id: String, version: Int)?
        var markerConflicts = 0
        /// The answer to `GET /api/v2/filters`: a person with no filters, until a test sets them.
        var filters = "[]"
        var requests: [HTTPRequest] = []
        var faults: [Int: Fault] = [:]
        var failingFrom: Int?
        /// Pages as a server that does not know `since_id` and `min_id` would: it answers the
        /// newest page below `max_id` whatever they say.
        var ignoresSinceID = false
        /// The largest page the server gives, whatever `limit` asks (as servers capping below
        /// Mastodon's 40 do); `nil`: the path's own maximum.
        var pageCap: Int?
        var responseHeaders: [HTTPHeader] = []
        var postsByKey: [String: Int] = [:]
        var streaming: String? = "wss://streaming.social.example"
        var streamStatus = 200
        var streamChunks: [String] = []
        var sequence = 0
        var random = SplitMix64(seed: 42)
        var usedIDs = Set<String>()
        var clock = 1_785_000_000_000
        /// `configuration.media_attachments` of the instance.
        var mediaLimits = #"{"supported_mime_types":["image/png","image/jpeg","image/gif","video/mp4"],"image_size_limit":16777216,"image_matrix_limit":33177600}"#
        /// The bodies of `POST /api/v2/media`, in order (media `m1`, `m2`, …).
        var media: [[UInt8]] = []
        /// How many looks at a medium answer 206 before it is processed.
        var processingTime = 1
        var processingLooks: [String: Int] = [:]
    }

    let state = Mutex(State())
    /// Called with each request's index before it is answered (to look at the store meanwhile).
    let onRequest: (@Sendable (Int) -> Void)?

    init(base: String = FakeMastodonServer.base, onRequest: (@Sendable (Int) -> Void)? = nil) {
        self.base = base
        self.onRequest = onRequest
    }

    // MARK: Scripting

    /// Adds `count` new statuses to the home timeline (by rotating authors); returns their IDs,
    /// oldest first.
    @discardableResult
    func post(_ count: Int, text: String = "status") -> [String] {
        state.withLock { state in
            (0 ..< count).map { _ in
                let index = Self.newStatus(&state, text: "\(text) \(state.statuses.count)")
                state.home.append(index)
                return state.statuses[index].id
            }
        }
    }

    /// A status the account itself wrote, created at `date` (its `created_at`), answering the
    /// status `replyTo` (a server ID): what an earlier try of a queued post left on the server.
    @discardableResult
    func ownStatus(text: String, at date: Date, replyTo: String? = nil) -> String {
        state.withLock { state in
            let index = Self.newStatus(&state, text: text, author: 0)
            state.statuses[index].createdAt = Int(date.timeIntervalSince1970 * 1000)
            state.statuses[index].replyTo = replyTo
            state.home.append(index)
            return state.statuses[index].id
        }
    }

    /// The number of statuses the account itself has on the server.
    var ownStatusCount: Int { state.withLock { state in state.statuses.indices.filter { state.statuses[$0].author == 0 && !state.deleted.contains($0) }.count } }

    /// A status by someone the account does not follow: on the server, not in the home timeline.
    @discardableResult
    func statusElsewhere(text: String = "elsewhere") -> String {
        state.withLock { state in
            let index = Self.newStatus(&state, text: text, author: 9)
            return state.statuses[index].id
        }
    }

    /// A boost of an existing status into the home timeline; returns the boost's ID.
    @discardableResult
    func boost(_ id: String) -> String {
        state.withLock { state in
            let original = state.statuses.firstIndex { $0.id == id }!
            let index = Self.newStatus(&state, text: "")
            state.statuses[index].boosted = original
            state.home.append(index)
            return state.statuses[index].id
        }
    }

    func edit(_ id: String, text: String) {
        state.withLock { state in
            let index = state.statuses.firstIndex { $0.id == id }!
            state.statuses[index].text = text
            state.clock += 1000
            state.statuses[index].editedAt = state.clock
        }
    }

    func delete(_ id: String) {
        state.withLock { state in
            let index = state.statuses.firstIndex { $0.id == id }!
            state.deleted.insert(index)
        }
    }

    /// Adds a notification; `statusID` names the status it is about.
    @discardableResult
    func notify(_ type: String, actor: Int = 1, statusID: String? = nil) -> String {
        state.withLock { state in
            state.sequence += 1
            state.clock += 1000
            let id = Self.opaqueID(&state)
            let status = statusID.map { id in state.statuses.firstIndex { $0.id == id }! }
            state.notifications.append(Notification(id: id, sequence: state.sequence, type: type, actor: actor,
                                                    status: status, createdAt: state.clock))
            return id
        }
    }

    /// A status as the API writes it (for the data of a stream event).
    func json(ofStatus id: String) -> String {
        state.withLock { state in Self.statusJSON(state.statuses.first { $0.id == id }!, in: state) }
    }

    func json(ofNotification id: String) -> String {
        state.withLock { state in Self.notificationJSON(state.notifications.first { $0.id == id }!, in: state) }
    }

    func setMarker(_ id: String) {
        state.withLock { state in state.marker = (id, (state.marker?.version ?? 0) + 1) }
    }

    var marker: String? { state.withLock { $0.marker?.id } }
    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    var requestCount: Int { state.withLock { $0.requests.count } }

    /// The home timeline's IDs as the server orders it, newest first.
    var homeIDs: [String] {
        state.withLock { state in state.home.reversed().filter { !state.deleted.contains($0) }.map { state.statuses[$0].id } }
    }

    var notificationIDs: [String] {
        state.withLock { state in state.notifications.reversed().map(\.id) }
    }

    func configure(_ body: (inout State) -> Void) {
        state.withLock { state in body(&state) }
    }

    // MARK: HTTPTransport

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let index = state.withLock { state in
            state.requests.append(request)
            return state.requests.count - 1
        }
        onRequest?(index)
        let fault = state.withLock { state -> Fault? in
            if let from = state.failingFrom, index >= from { return .cut }
            return state.faults[index]
        }
        var response: HTTPResponse
        switch fault {
        case .timeout?: throw .timedOut(url: request.url, after: request.timeout)
        case .cut?: throw .malformedResponse(url: request.url, reason: "the connection closed before the answer ended")
        case let .status(code, headers, body)?:
            return HTTPResponse(status: code, headers: headers, body: Array(body.utf8))
        case .truncatedBody?:
            response = answer(request)
            response.body = Array(response.body.prefix(response.body.count / 2))
        case .lostAnswer?:
            _ = answer(request)
            throw .malformedResponse(url: request.url, reason: "the connection closed before the answer ended")
        case nil:
            response = answer(request)
        }
        response.headers += state.withLock { $0.responseHeaders }
        return response
    }

    func stream(
        _ request: HTTPRequest, receive: @Sendable (_ status: Int, _ chunk: [UInt8]) -> Bool
    ) async throws(HTTPTransportError) -> HTTPResponse {
        let (status, chunks) = state.withLock { state in
            state.requests.append(request)
            return (state.streamStatus, state.streamChunks)
        }
        for chunk in chunks where !receive(status, Array(chunk.utf8)) { break }
        return HTTPResponse(status: status, headers: [HTTPHeader(name: "Content-Type", value: "text/event-stream")])
    }

    // MARK: Answers

    private func answer(_ request: HTTPRequest) -> HTTPResponse {
        guard request.url.hasPrefix(base) else { return json(404, #"{"error":"Not found"}"#) }
        let pathAndQuery = String(request.url.dropFirst(base.count))
        let path = String(pathAndQuery.prefix { $0 != "?" })
        let query = Self.query(of: request.url)
        switch (request.method, path) {
        case (.get, "/api/v1/timelines/home"):
            return state.withLock { state in
                let entries = state.home.filter { !state.deleted.contains($0) }.map { (state.statuses[$0].sequence, $0) }
                return page(entries, query: query, path: path, maximum: 40, state: &state) { state, index in
                    Self.statusJSON(state.statuses[index], in: state)
                }
            }
        case (.get, "/api/v1/notifications"):
            return state.withLock { state in
                let entries = state.notifications.indices.map { (state.notifications[$0].sequence, $0) }
                return page(entries, query: query, path: path, maximum: 80, state: &state) { state, index in
                    Self.notificationJSON(state.notifications[index], in: state)
                }
            }
        case (.get, "/api/v2/filters"):
            return state.withLock { state in json(200, state.filters) }
        case (.get, "/api/v1/markers"):
            return state.withLock { state in
                guard let marker = state.marker else { return json(200, "{}") }
                return json(200, Self.markerJSON(marker))
            }
        case (.post, "/api/v1/markers"):
            return state.withLock { state in
                if state.markerConflicts > 0 {
                    state.markerConflicts -= 1
                    if let marker = state.marker { state.marker = (marker.id, marker.version + 1) }
                    return json(409, #"{"error":"Conflict during update, please try again"}"#)
                }
                let body = try! JSONSerialization.jsonObject(with: Data(request.body ?? [])) as! [String: [String: String]]
                state.marker = (body["home"]!["last_read_id"]!, (state.marker?.version ?? 0) + 1)
                return json(200, Self.markerJSON(state.marker!))
            }
        case (.post, "/api/v1/statuses"):
            return state.withLock { state in
                let key = request.headers.first { $0.matches("Idempotency-Key") }?.value
                if let key, let existing = state.postsByKey[key] {
                    return json(200, Self.statusJSON(state.statuses[existing], in: state))
                }
                let body = try! JSONSerialization.jsonObject(with: Data(request.body ?? [])) as! [String: Any]
                let index = Self.newStatus(&state, text: body["status"] as? String ?? "", author: 0)
                state.statuses[index].spoiler = body["spoiler_text"] as? String ?? ""
                state.statuses[index].replyTo = body["in_reply_to_id"] as? String
                state.statuses[index].visibility = body["visibility"] as? String ?? "public"
                state.statuses[index].mediaIDs = body["media_ids"] as? [String] ?? []
                state.home.append(index)
                if let key { state.postsByKey[key] = index }
                return json(200, Self.statusJSON(state.statuses[index], in: state))
            }
        case (.get, "/api/v1/accounts/\(Self.accountID(0))/statuses"):
            // The account's own statuses, newest first, as Mastodon lists them.
            return state.withLock { state in
                let entries = state.statuses.indices.filter { state.statuses[$0].author == 0 && !state.deleted.contains($0) }
                    .map { (state.statuses[$0].sequence, $0) }
                return page(entries, query: query, path: path, maximum: 40, state: &state) { state, index in
                    Self.statusJSON(state.statuses[index], in: state)
                }
            }
        case (.get, _) where path.hasPrefix("/api/v1/statuses/") && !path.dropFirst("/api/v1/statuses/".count).contains("/"):
            return state.withLock { state in
                let id = String(path.dropFirst("/api/v1/statuses/".count))
                guard let index = state.statuses.firstIndex(where: { $0.id == id }), !state.deleted.contains(index) else {
                    return json(404, #"{"error":"Record not found"}"#)
                }
                return json(200, Self.statusJSON(state.statuses[index], in: state))
            }
        case (.get, "/api/v2/instance"):
            return state.withLock { state in
                let streaming = state.streaming.map { "\"\($0)\"" } ?? "null"
                return json(200, #"{"domain":"social.example","configuration":{"urls":{"streaming":\#(streaming)},"media_attachments":\#(state.mediaLimits)}}"#)
            }
        case (.post, "/api/v2/media"):
            // Processed later (202, no url yet), as Mastodon does for most pictures.
            return state.withLock { state in
                state.media.append(request.body ?? [])
                return json(202, #"{"id":"m\#(state.media.count)","type":"image","url":null}"#)
            }
        case (.get, _) where path.hasPrefix("/api/v1/media/"):
            return state.withLock { state in
                let id = String(path.dropFirst("/api/v1/media/".count))
                state.processingLooks[id, default: 0] += 1
                guard state.processingLooks[id]! > state.processingTime else { return json(206, #"{"id":"\#(id)","url":null}"#) }
                return json(200, #"{"id":"\#(id)","type":"image","url":"https://files.social.example/\#(id).png"}"#)
            }
        default:
            return json(404, #"{"error":"Record not found"}"#)
        }
    }

    /// One page of `entries` (server sequence, index), as Mastodon pages: `min_id` takes the
    /// oldest above it, otherwise the newest below `max_id` and above `since_id`.
    private func page(
        _ entries: [(sequence: Int, index: Int)], query: [String: String], path: String, maximum: Int,
        state: inout State, render: (State, Int) -> String
    ) -> HTTPResponse {
        let limit = min(Int(query["limit"] ?? "20") ?? 20, maximum, state.pageCap ?? .max)
        let sequenceOf = { (id: String) -> Int? in
            state.statuses.first { $0.id == id }?.sequence ?? state.notifications.first { $0.id == id }?.sequence
        }
        var candidates = entries
        if let max = query["max_id"].flatMap(sequenceOf) { candidates = candidates.filter { $0.sequence < max } }
        if !state.ignoresSinceID, let since = query["since_id"].flatMap(sequenceOf) { candidates = candidates.filter { $0.sequence > since } }
        var chosen: [(sequence: Int, index: Int)]
        if !state.ignoresSinceID, let min = query["min_id"].flatMap(sequenceOf) {
            chosen = Array(candidates.filter { $0.sequence > min }.sorted { $0.sequence < $1.sequence }.prefix(limit).reversed())
        } else {
            chosen = Array(candidates.sorted { $0.sequence > $1.sequence }.prefix(limit))
        }
        let body = "[" + chosen.map { render(state, $0.index) }.joined(separator: ",") + "]"
        var headers = [HTTPHeader(name: "Content-Type", value: "application/json; charset=utf-8")]
        if let first = chosen.first, let last = chosen.last {
            let firstID = Self.entryID(first.index, path: path, in: state)
            let lastID = Self.entryID(last.index, path: path, in: state)
            headers.append(HTTPHeader(name: "Link", value:
                "<\(base)\(path)?limit=\(limit)&max_id=\(lastID)>; rel=\"next\", <\(base)\(path)?limit=\(limit)&min_id=\(firstID)>; rel=\"prev\""))
        }
        return HTTPResponse(status: 200, headers: headers, body: Array(body.utf8))
    }

    private static func entryID(_ index: Int, path: String, in state: State) -> String {
        path.hasSuffix("notifications") ? state.notifications[index].id : state.statuses[index].id
    }

    private func json(_ status: Int, _ body: String) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json; charset=utf-8")],
                     body: Array(body.utf8))
    }

    static func query(of url: String) -> [String: String] {
        guard let question = url.firstIndex(of: "?") else { return [:] }
        var result: [String: String] = [:]
        for pair in url[url.index(after: question)...].split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            result[parts[0]] = parts.count > 1 ? parts[1] : ""
        }
        return result
    }

    // MARK: JSON

    private static func newStatus(_ state: inout State, text: String, author: Int? = nil) -> Int {
        state.sequence += 1
        state.clock += 60_000
        let index = state.statuses.count
        state.statuses.append(Status(id: opaqueID(&state), sequence: state.sequence, author: author ?? (index % 5 + 1),
                                     text: text, createdAt: state.clock))
        return index
    }

    /// A new random base-36 ID of 3 to 14 characters: its order says nothing.
    static func opaqueID(_ state: inout State) -> String {
        while true {
            let length = Int(state.random.next() % 12) + 3
            let id = String((0 ..< length).map { _ in Array("0123456789abcdefghijklmnopqrstuvwxyz")[Int(state.random.next() % 36)] })
            if state.usedIDs.insert(id).inserted { return id }
        }
    }

    static func accountID(_ author: Int) -> String { "acct\(author * 7919 % 1000)" }

    static func accountJSON(_ author: Int) -> String {
        let name = author == 0 ? "Me" : "Person \(author)"
        return #"{"id":"\#(accountID(author))","username":"user\#(author)","acct":"user\#(author)","display_name":"\#(name)","url":"\#(base)/@user\#(author)","bot":false}"#
    }

    static func statusJSON(_ status: Status, in state: State) -> String {
        let reblog = status.boosted.map { statusJSON(state.statuses[$0], in: state) } ?? "null"
        let edited = status.editedAt.map { "\"\(time($0))\"" } ?? "null"
        let text = String(data: try! JSONSerialization.data(withJSONObject: ["<p>\(status.text)</p>"]), encoding: .utf8)!.dropFirst().dropLast()
        return #"{"id":"\#(status.id)","created_at":"\#(time(status.createdAt))","edited_at":\#(edited),"in_reply_to_id":\#(status.replyTo.map { "\"\($0)\"" } ?? "null"),"in_reply_to_account_id":null,"spoiler_text":"\#(status.spoiler)","visibility":"\#(status.visibility)","url":"\#(base)/@user\#(status.author)/\#(status.id)","replies_count":0,"reblogs_count":0,"favourites_count":0,"content":\#(text),"reblog":\#(reblog),"account":\#(accountJSON(status.author)),"media_attachments":[]}"#
    }

    static func notificationJSON(_ notification: Notification, in state: State) -> String {
        let status = notification.status.map { statusJSON(state.statuses[$0], in: state) } ?? "null"
        return #"{"id":"\#(notification.id)","type":"\#(notification.type)","created_at":"\#(time(notification.createdAt))","account":\#(accountJSON(notification.actor)),"status":\#(status)}"#
    }

    static func markerJSON(_ marker: (id: String, version: Int)) -> String {
        #"{"home":{"last_read_id":"\#(marker.id)","version":\#(marker.version),"updated_at":"2026-08-01T13:51:07.594Z"}}"#
    }

    static func time(_ milliseconds: Int) -> String {
        var bytes: [UInt8] = []
        RFC3339Time.append(milliseconds: Int64(milliseconds), to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
