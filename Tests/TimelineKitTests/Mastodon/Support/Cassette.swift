import Foundation
import Synchronization
@testable import TimelineKit

/// A recording of real requests and answers, from Mastodon.py's test cassettes (MIT; see
/// `Fixtures/Mastodon.py/README.md`), converted once to JSON by
/// `tools/mastodon-cassettes/convert.py`.
struct Cassette: Decodable {
    struct Request: Decodable {
        var method: String
        var uri: String
        var headers: [[String]]
        var body: String?
    }

    struct Response: Decodable {
        var status: Int
        var headers: [[String]]
        var body: String

        var httpResponse: HTTPResponse {
            HTTPResponse(status: status, headers: headers.map { HTTPHeader(name: $0[0], value: $0[1]) }, body: Array(body.utf8))
        }
    }

    struct Interaction: Decodable {
        var request: Request
        var response: Response
    }

    var source: String
    var interactions: [Interaction]

    static func named(_ name: String) throws -> Cassette {
        let data = try Data(contentsOf: URL(fileURLWithPath: Fixtures.path("Mastodon.py/\(name).json")))
        return try JSONDecoder().decode(Cassette.self, from: data)
    }

    /// The interactions whose request is `method` to a URL starting with `prefix`.
    func interactions(_ method: String, _ prefix: String) -> [Interaction] {
        interactions.filter { $0.request.method == method && $0.request.uri.hasPrefix(prefix) }
    }
}

/// Answers requests from a cassette: each request must match the next unused recorded request
/// with its method and URL (exactly, or by path alone when `matchingQuery` is false). A request
/// the cassette does not hold fails the test with a 599 answer naming it.
final class ReplayTransport: HTTPTransport, Sendable {
    private let interactions: [Cassette.Interaction]
    private let matchingQuery: Bool
    private let used = Mutex<Set<Int>>([])
    let unmatched = Mutex<[String]>([])

    init(_ cassette: Cassette, matchingQuery: Bool = true) {
        interactions = cassette.interactions
        self.matchingQuery = matchingQuery
    }

    /// The recorded URLs that were replayed, in the order they were asked for.
    let replayed = Mutex<[String]>([])
    /// The bodies of the requests, as text.
    let sentBodies = Mutex<[String]>([])

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        if let body = request.body { sentBodies.withLock { $0.append(String(decoding: body, as: UTF8.self)) } }
        let match = used.withLock { used -> Int? in
            let index = interactions.indices.first { index in
                !used.contains(index) && interactions[index].request.method == request.method.rawValue
                    && Self.key(interactions[index].request.uri, matchingQuery) == Self.key(request.url, matchingQuery)
            }
            if let index { used.insert(index) }
            return index
        }
        guard let match else {
            unmatched.withLock { $0.append("\(request.method.rawValue) \(request.url)") }
            return HTTPResponse(status: 599, body: Array("not in the cassette".utf8))
        }
        replayed.withLock { $0.append(interactions[match].request.uri) }
        return interactions[match].response.httpResponse
    }

    func stream(
        _ request: HTTPRequest, receive: @Sendable (_ status: Int, _ chunk: [UInt8]) -> Bool
    ) async throws(HTTPTransportError) -> HTTPResponse {
        throw .unavailable(reason: "the cassettes hold no streams")
    }

    /// The URL as compared: without a trailing slash on the path, and without the query unless
    /// it counts.
    private static func key(_ url: String, _ matchingQuery: Bool) -> String {
        var path = String(url.prefix { $0 != "?" })
        let query = url.dropFirst(path.count)
        while path.hasSuffix("/") { path.removeLast() }
        return matchingQuery ? path + query : path
    }
}
