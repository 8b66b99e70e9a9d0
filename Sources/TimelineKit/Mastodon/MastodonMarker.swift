#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A server's read position in a timeline (`GET /api/v1/markers`): the ID of the last status
/// read, shared by every app of the account, so reading on the phone marks the terminal's
/// timeline read, and back.
public struct MastodonMarker: Sendable, Hashable {
    /// The server's ID of the newest status read.
    public var lastReadID: String
    /// Counts the marker's changes (Mastodon's optimistic lock; 409 Conflict when it moved).
    public var version: Int?
    /// When it last changed.
    public var updatedAt: Date?

    public init(lastReadID: String, version: Int? = nil, updatedAt: Date? = nil) {
        self.lastReadID = lastReadID
        self.version = version
        self.updatedAt = updatedAt
    }

    /// The `home` marker of a markers answer (`{"home": {…}}`); `nil` when the account has none.
    static func home(in response: HTTPResponse, from url: String) throws(ServerError) -> MastodonMarker? {
        try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> MastodonMarker? in
            let markers = try JSONObjectView(document, path: "", expected: "an object of markers")
            guard let home = try markers.object("home", expected: "a marker object") else { return nil }
            return MastodonMarker(
                lastReadID: try home.requiredID("last_read_id"),
                version: home.field("version") == nil ? nil : try home.count("version"),
                updatedAt: try home.rfc3339Time("updated_at").map(MillisecondTime.date(fromMilliseconds:)))
        }
    }
}

extension MastodonClient {
    /// The account's home read marker (`GET /api/v1/markers?timeline[]=home`), `nil` when it
    /// has never been set; `ServerError.notSupported` from a server without markers (Takahē).
    public func homeMarker() async throws(ServerError) -> MastodonMarker? {
        let url = server.url("/api/v1/markers", query: [("timeline[]", "home")])
        return try MastodonMarker.home(in: try await sendOptional(.get, url), from: url)
    }

    /// Sets the home read marker to the server's status ID `lastReadID`
    /// (`POST /api/v1/markers`). A 409 Conflict (the marker moved meanwhile) comes back as
    /// `ServerError.rejected` with status 409.
    @discardableResult
    public func setHomeMarker(lastReadID: String) async throws(ServerError) -> MastodonMarker? {
        let url = server.url("/api/v1/markers")
        var body: [UInt8] = Array(#"{"home":{"last_read_id":"#.utf8)
        JSONLineEncoder.appendString(lastReadID, to: &body)
        body += Array("}}".utf8)
        return try MastodonMarker.home(in: try await sendOptional(.post, url, json: body), from: url)
    }
}
