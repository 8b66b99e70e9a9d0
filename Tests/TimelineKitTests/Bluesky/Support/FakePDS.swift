import Foundation
import Synchronization
@testable import TimelineKit

/// A Bluesky PDS in memory, answering XRPC through `HTTPTransport`: sessions (created with a
/// password, refreshed with a refresh token that is retired once used, access tokens that can
/// be made to expire), and any other call answered by `handler`. Every request is recorded.
final class FakePDS: HTTPTransport, Sendable {
    static let entryway = "https://entryway.example"
    static let pds = "https://pds.example"
    static let did = "did:plc:u0"  // author 0 of the feed's posts
    static let password = "app-pass-word-1234"

    struct State: Sendable {
        var requests: [HTTPRequest] = []
        var generation = 0
        var accessValid = true
        var refreshValid = true
        /// Extra answers for calls other than sessions, by NSID.
        var answers: [String: [HTTPResponse]] = [:]
        /// The home timeline's items (JSON), newest first, paged by `cursor`.
        var feed: [String] = []
        /// The notifications (JSON), newest first.
        var notifications: [String] = []
        /// Post views (JSON) that `getPosts` finds, by URI.
        var posts: [String: String] = [:]
        /// Requests (by index, 0-based) that fail as if the network were gone.
        var unreachable: Set<Int> = []
    }

    let state = Mutex(State())

    var requests: [HTTPRequest] { state.withLock { $0.requests } }

    func access(_ generation: Int) -> String { "access-\(generation)" }
    func refresh(_ generation: Int) -> String { "refresh-\(generation)" }

    /// The session answer of generation `generation`.
    func sessionBody(_ generation: Int) -> String {
        """
        {"did":"\(Self.did)","handle":"alice.test","accessJwt":"\(access(generation))","refreshJwt":"\(refresh(generation))",
         "didDoc":{"id":"\(Self.did)","service":[{"id":"#atproto_pds","type":"AtprotoPersonalDataServer","serviceEndpoint":"\(Self.pds)"}]}}
        """
    }

    /// Makes the current access token expire, as two hours do.
    func expireAccess() { state.withLock { $0.accessValid = false } }

    /// Queues answers to `nsid`, used in order (the last one stays).
    func answer(_ nsid: String, _ responses: HTTPResponse...) {
        state.withLock { $0.answers[nsid, default: []] += responses }
    }

    static func json(_ status: Int, _ body: String, headers: [HTTPHeader] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [HTTPHeader(name: "Content-Type", value: "application/json; charset=utf-8")] + headers,
                     body: Array(body.utf8))
    }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        let gone = state.withLock { state -> Bool in
            guard state.unreachable.contains(state.requests.count) else { return false }
            state.requests.append(request)
            return true
        }
        if gone { throw .cannotConnect(url: request.url, reason: "the test cut the network") }
        return state.withLock { state -> HTTPResponse in
            state.requests.append(request)
            let path = request.url.split(separator: "?", maxSplits: 1).first.map(String.init) ?? request.url
            let nsid = path.components(separatedBy: "/xrpc/").last ?? ""
            let bearer = request.headers.first { $0.matches("Authorization") }?.value.replacingOccurrences(of: "Bearer ", with: "")
            switch nsid {
            case "com.atproto.server.createSession":
                let body = String(decoding: request.body ?? [], as: UTF8.self)
                guard body.contains("\"password\":\"\(Self.password)\"") else {
                    return Self.json(401, #"{"error":"AuthenticationRequired","message":"Invalid identifier or password"}"#)
                }
                state.generation += 1
                state.accessValid = true
                state.refreshValid = true
                return Self.json(200, sessionBody(state.generation))
            case "com.atproto.server.refreshSession":
                guard state.refreshValid, bearer == refresh(state.generation) else {
                    return Self.json(400, #"{"error":"ExpiredToken","message":"Token has been revoked"}"#)
                }
                state.generation += 1
                state.accessValid = true
                return Self.json(200, sessionBody(state.generation))
            case "com.atproto.server.deleteSession":
                // Ended with the refresh token; neither token works afterwards.
                guard state.refreshValid, bearer == refresh(state.generation) else {
                    return Self.json(400, #"{"error":"ExpiredToken","message":"Token has been revoked"}"#)
                }
                state.accessValid = false
                state.refreshValid = false
                return Self.json(200, "")
            default:
                guard state.accessValid, bearer == access(state.generation) else {
                    return Self.json(400, #"{"error":"ExpiredToken","message":"Token has expired"}"#)
                }
                let query = Self.query(of: request.url)
                let limit = Int(query.first { $0.0 == "limit" }?.1 ?? "50") ?? 50
                let start = Int(query.first { $0.0 == "cursor" }?.1.dropFirst(4) ?? "0") ?? 0
                func page(_ items: [String], key: String) -> HTTPResponse {
                    let slice = items.dropFirst(start).prefix(limit)
                    let next = start + slice.count < items.count ? #","cursor":"page\#(start + slice.count)""# : ""
                    return Self.json(200, #"{""# + key + #"":["# + slice.joined(separator: ",") + "]" + next + "}")
                }
                if state.answers[nsid] == nil {
                    switch nsid {
                    case "app.bsky.feed.getTimeline": return page(state.feed, key: "feed")
                    // A new account's preferences: none.
                    case "app.bsky.actor.getPreferences": return Self.json(200, #"{"preferences":[]}"#)
                    case "app.bsky.notification.listNotifications": return page(state.notifications, key: "notifications")
                    case "app.bsky.feed.getPosts":
                        let found = query.filter { $0.0 == "uris" }.compactMap { state.posts[$0.1] }
                        return Self.json(200, #"{"posts":["# + found.joined(separator: ",") + "]}")
                    default: break
                    }
                }
                guard var queue = state.answers[nsid], let first = queue.first else {
                    return Self.json(501, #"{"error":"MethodNotImplemented"}"#)
                }
                if queue.count > 1 { queue.removeFirst() }
                state.answers[nsid] = queue
                return first
            }
        }
    }

    /// The query's name-value pairs, percent-decoded.
    static func query(of url: String) -> [(String, String)] {
        guard let query = url.split(separator: "?", maxSplits: 1).dropFirst().first else { return [] }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1).map { String($0).removingPercentEncoding ?? String($0) }
            return (parts[0], parts.count > 1 ? parts[1] : "")
        }
    }

    // MARK: Content

    /// A post view of `author` (`did:plc:uN`, `uN.test`) with key `key`, at second `second`.
    static func postView(author: Int, key: String, text: String, second: Int) -> String {
        let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(1_785_592_800 + second)))
        return #"{"uri":"at://did:plc:u\#(author)/app.bsky.feed.post/\#(key)","cid":"c\#(key)","indexedAt":"\#(time)","#
            + #""author":{"did":"did:plc:u\#(author)","handle":"u\#(author).test","displayName":"User \#(author)"},"#
            + #""record":{"$type":"app.bsky.feed.post","text":"\#(text)","createdAt":"\#(time)"},"likeCount":\#(second % 7)}"#
    }

    /// Adds `count` posts to the top of the home feed, by authors 1-5 (and 0, the account, every
    /// tenth), each seventh a repost by author 9; returns their entry IDs, newest first.
    @discardableResult
    func post(_ count: Int) -> [String] {
        state.withLock { state in
            var ids: [String] = []
            for _ in 0 ..< count {
                let n = state.feed.count
                let author = n % 10 == 0 ? 0 : 1 + n % 5
                let view = Self.postView(author: author, key: "p\(n)", text: "post \(n)", second: n * 60)
                if n % 7 == 3 {
                    let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(1_785_592_800 + n * 60 + 30)))
                    let uri = "at://did:plc:u9/app.bsky.feed.repost/r\(n)"
                    state.feed.insert(#"{"post":\#(view),"reason":{"$type":"app.bsky.feed.defs#reasonRepost","uri":"\#(uri)","#
                                      + #""by":{"did":"did:plc:u9","handle":"u9.test"},"indexedAt":"\#(time)"}}"#, at: 0)
                    ids.append(uri)
                } else {
                    state.feed.insert(#"{"post":\#(view)}"#, at: 0)
                    ids.append("at://did:plc:u\(author)/app.bsky.feed.post/p\(n)")
                }
            }
            return ids.reversed()
        }
    }

    /// Adds to the top of the home feed a repost by author `by` of post `n` (one `post(_:)`
    /// made), under the repost record's URI, or without one (`recordURI: false`, an entry ID of
    /// the post's URI and the reposter's DID); returns its entry ID.
    @discardableResult
    func repost(of n: Int, by reposter: Int, recordURI: Bool = true) -> String {
        state.withLock { state in
            let author = n % 10 == 0 ? 0 : 1 + n % 5
            let view = Self.postView(author: author, key: "p\(n)", text: "post \(n)", second: n * 60)
            let time = ISO8601DateFormatter().string(from: Date(timeIntervalSince1970: Double(1_785_592_800 + state.feed.count * 60 + 30)))
            let uri = "at://did:plc:u\(reposter)/app.bsky.feed.repost/q\(state.feed.count)"
            let uriField = recordURI ? #""uri":"\#(uri)","# : ""
            state.feed.insert(#"{"post":\#(view),"reason":{"$type":"app.bsky.feed.defs#reasonRepost",\#(uriField)"#
                              + #""by":{"did":"did:plc:u\#(reposter)","handle":"u\#(reposter).test"},"indexedAt":"\#(time)"}}"#, at: 0)
            return recordURI ? uri : "at://did:plc:u\(author)/app.bsky.feed.post/p\(n)#repost:did:plc:u\(reposter)"
        }
    }

    func stream(
        _ request: HTTPRequest, receive: @Sendable (_ status: Int, _ chunk: [UInt8]) -> Bool
    ) async throws(HTTPTransportError) -> HTTPResponse {
        throw .unavailable(reason: "Bluesky's timeline is not streamed")
    }
}
