#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// A follow and a block are records of the same shape in the account's repository (the
// `app.bsky.graph.follow` and `app.bsky.graph.block` lexicons: a subject DID and a time), made
// and deleted the same way: one place writes them and one deletes them.

extension BlueskySync {
    /// An `app.bsky.graph.*` record of `type` (`app.bsky.graph.follow`, `app.bsky.graph.block`)
    /// about `subject` (a DID), as the lexicons have it.
    static func graphRecord(_ type: String, subject: String, createdAt: Date) -> [UInt8] {
        var record: [UInt8] = Array(#"{"$type":"#.utf8)
        JSONLineEncoder.appendString(type, to: &record)
        record += Array(#","subject":"#.utf8)
        JSONLineEncoder.appendString(subject, to: &record)
        record += Array(#","createdAt":"#.utf8)
        JSONLineEncoder.appendString(ServerError.timestamp(createdAt), to: &record)
        record.append(UInt8(ascii: "}"))
        return record
    }

    /// Writes a graph record of `collection` about `subject` into the account's repository of
    /// `did`: with `recordKey` (chosen when the outbox queued the change) by
    /// `com.atproto.repo.putRecord`, so a retry whose answer was lost writes the same record
    /// again, never a second one, even while the AppView does not show it; else by `createRecord`.
    func writeGraphRecord(_ collection: String, subject: String, did: String, recordKey: String?) async throws(ServerError) {
        var body: [UInt8] = Array(#"{"repo":"#.utf8)
        JSONLineEncoder.appendString(did, to: &body)
        body += Array(#","collection":"#.utf8)
        JSONLineEncoder.appendString(collection, to: &body)
        body += Array(",".utf8)
        if let recordKey {
            body += Array(#""rkey":"#.utf8)
            JSONLineEncoder.appendString(recordKey, to: &body)
            body += Array(",".utf8)
        }
        body += Array(#""record":"#.utf8) + Self.graphRecord(collection, subject: subject, createdAt: client.clock.now())
        body.append(UInt8(ascii: "}"))
        _ = try await client.procedure(recordKey == nil ? "com.atproto.repo.createRecord" : "com.atproto.repo.putRecord", json: body)
    }

    /// Deletes the graph record `uri` names (as the profile's viewer state gives it:
    /// `viewer.following`, `viewer.blocking`), once its AT URI shows it is a record of
    /// `collection` in the repository of `did`; its key is in the URI. `what` names it for the
    /// error (`follow`, `block`).
    func deleteGraphRecord(_ uri: String, collection: String, did: String, what: String) async throws(ServerError) {
        guard let parsed = ATURI(uri), parsed.authority == did, parsed.collection == collection, let key = parsed.recordKey else {
            throw .invalidResponse(url: client.host.url("/xrpc/app.bsky.actor.getProfile"),
                                   problem: "the \(what) \(QuotedValue.quoted(uri)) is not a \(what) record of this account.")
        }
        try await deleteRecord(did: did, collection: collection, key: key)
    }

    /// Deletes the record `key` of `collection` in the repository of `did`
    /// (`com.atproto.repo.deleteRecord`): a follow, a block, a like or a repost taken back.
    func deleteRecord(did: String, collection: String, key: String) async throws(ServerError) {
        var body: [UInt8] = Array(#"{"repo":"#.utf8)
        JSONLineEncoder.appendString(did, to: &body)
        body += Array(#","collection":"#.utf8)
        JSONLineEncoder.appendString(collection, to: &body)
        body += Array(#","rkey":"#.utf8)
        JSONLineEncoder.appendString(key, to: &body)
        body.append(UInt8(ascii: "}"))
        _ = try await client.procedure("com.atproto.repo.deleteRecord", json: body)
    }
}
