import Foundation
import Synchronization
@testable import TimelineKit

/// A Bluesky PDS in memory, answering XRPC through `HTTPTransport`: sessions (created with a
/// password, refreshed with a refresh token that is retired once used, access tokens that can
/// be made to expire), and any other call answered by `handler`. Every request is recorded.
final class FakePDS: HTTPTransport, Sendable {
    static let entryway = "https://entryway.example"
    static let pds = "https://pds.example"
    static let did = "did:plc:fakealice"
    static let password = "app-pass-word-1234"

    struct State: Sendable {
        var requests: [HTTPRequest] = []
        var generation = 0
        var accessValid = true
        var refreshValid = true
        /// Extra answers for calls other than sessions, by NSID.
        var answers: [String: [HTTPResponse]] = [:]
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
        state.withLock { state -> HTTPResponse in
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
            default:
                guard state.accessValid, bearer == access(state.generation) else {
                    return Self.json(400, #"{"error":"ExpiredToken","message":"Token has expired"}"#)
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

    func stream(
        _ request: HTTPRequest, receive: @Sendable (_ status: Int, _ chunk: [UInt8]) -> Bool
    ) async throws(HTTPTransportError) -> HTTPResponse {
        throw .unavailable(reason: "Bluesky's timeline is not streamed")
    }
}
