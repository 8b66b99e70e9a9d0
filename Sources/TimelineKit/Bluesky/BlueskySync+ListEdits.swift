#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension BlueskySync {
    /// The most items of one list read (`app.bsky.graph.getList`, 100 a page): what `remove`
    /// looks through and `delete` deletes with the list, so a list cannot keep either going.
    static let listItemsAtMost = 1_000

    /// An `app.bsky.graph.list` record: a curation list (`app.bsky.graph.defs#curatelist`) named
    /// `name`, as the lexicon has it.
    static func listRecord(name: String, createdAt: Date) -> [UInt8] {
        var record: [UInt8] = Array(#"{"$type":"app.bsky.graph.list","purpose":"app.bsky.graph.defs#curatelist","name":"#.utf8)
        JSONLineEncoder.appendString(name, to: &record)
        record += Array(#","createdAt":"#.utf8)
        JSONLineEncoder.appendString(ServerError.timestamp(createdAt), to: &record)
        record.append(UInt8(ascii: "}"))
        return record
    }

    /// An `app.bsky.graph.listitem` record: `subject` (a DID) in the list `list` (its AT URI).
    static func listItemRecord(subject: String, list: String, createdAt: Date) -> [UInt8] {
        var record: [UInt8] = Array(#"{"$type":"app.bsky.graph.listitem","subject":"#.utf8)
        JSONLineEncoder.appendString(subject, to: &record)
        record += Array(#","list":"#.utf8)
        JSONLineEncoder.appendString(list, to: &record)
        record += Array(#","createdAt":"#.utf8)
        JSONLineEncoder.appendString(ServerError.timestamp(createdAt), to: &record)
        record.append(UInt8(ascii: "}"))
        return record
    }

    /// Makes, changes or deletes one of the account's curation lists (issue 37), as records of
    /// its repository: `create` writes an `app.bsky.graph.list` (`com.atproto.repo.createRecord`),
    /// `add` an `app.bsky.graph.listitem` naming the account's DID and the list (unless the list
    /// already holds it), `remove` deletes that item, `delete` deletes the list's items (at most
    /// `listItemsAtMost`) and then the list. A list that is not a list record of this account
    /// is refused before anything is sent.
    public func editList(_ edit: ListEdit) async throws(ServerError) -> ListEditOutcome {
        guard let session = client.currentSession else { throw .unauthorized(server: client.service.baseURL) }
        switch edit {
        case let .create(title):
            var body: [UInt8] = Array(#"{"repo":"#.utf8)
            JSONLineEncoder.appendString(session.did, to: &body)
            body += Array(#","collection":"app.bsky.graph.list","record":"#.utf8) + Self.listRecord(name: title, createdAt: client.clock.now())
            body.append(UInt8(ascii: "}"))
            let nsid = "com.atproto.repo.createRecord"
            let response = try await client.procedure(nsid, json: body)
            let uri = try ServerResponseReader.read(response, from: client.host.url("/xrpc/" + nsid)) { document throws(JSONLineFailure) in
                try JSONObjectView(document, path: "", expected: "a created record").requiredString("uri")
            }
            return ListEditOutcome(created: TimelineList(id: uri, title: title))
        case let .add(list, handle):
            try ownList(list, did: session.did)
            let user = try await profile(handle).user
            if try await listItems(list).contains(where: { $0.subject == user.id }) {
                return ListEditOutcome(account: user, changed: false)
            }
            var body: [UInt8] = Array(#"{"repo":"#.utf8)
            JSONLineEncoder.appendString(session.did, to: &body)
            body += Array(#","collection":"app.bsky.graph.listitem","record":"#.utf8)
                + Self.listItemRecord(subject: user.id, list: list, createdAt: client.clock.now())
            body.append(UInt8(ascii: "}"))
            _ = try await client.procedure("com.atproto.repo.createRecord", json: body)
            return ListEditOutcome(account: user)
        case let .remove(list, handle):
            try ownList(list, did: session.did)
            let user = try await profile(handle).user
            let items = try await listItems(list).filter { $0.subject == user.id }
            for item in items {
                try await deleteGraphRecord(item.uri, collection: "app.bsky.graph.listitem", did: session.did, what: "list item")
            }
            return ListEditOutcome(account: user, changed: !items.isEmpty)
        case let .delete(list):
            let key = try ownList(list, did: session.did)
            let items = try await listItems(list)
            for item in items {
                try await deleteGraphRecord(item.uri, collection: "app.bsky.graph.listitem", did: session.did, what: "list item")
            }
            try await deleteRecord(did: session.did, collection: "app.bsky.graph.list", key: key)
            return ListEditOutcome(itemsDeleted: items.count)
        }
    }

    /// The record key of `list` when it is an `app.bsky.graph.list` record of `did`; else refused.
    @discardableResult
    private func ownList(_ list: String, did: String) throws(ServerError) -> String {
        guard let uri = ATURI(list), uri.authority == did, uri.collection == "app.bsky.graph.list", let key = uri.recordKey else {
            throw .rejected(url: client.host.url("/xrpc/com.atproto.repo.createRecord"), status: 400,
                            reason: "\(QuotedValue.quoted(list)) is not one of your lists (at://\(did)/app.bsky.graph.list/…): `timeline lists` shows them; nothing was sent")
        }
        return key
    }

    /// The items of `list` (`app.bsky.graph.getList`, 100 a page, by cursor), each its record's
    /// URI and the DID it names, at most `listItemsAtMost` in at most 11 requests.
    private func listItems(_ list: String) async throws(ServerError) -> [(uri: String, subject: String)] {
        let nsid = "app.bsky.graph.getList"
        let url = client.host.url("/xrpc/" + nsid)
        var items: [(uri: String, subject: String)] = []
        var cursor: String?
        var requests = 0
        while items.count < Self.listItemsAtMost, requests < Self.listItemsAtMost / 100 + 1 {
            requests += 1
            var query = [(name: "list", value: list), (name: "limit", value: "100")]
            if let cursor { query.append((name: "cursor", value: cursor)) }
            let response = try await client.query(nsid, query)
            let wanted = Self.listItemsAtMost - items.count
            let (page, next) = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                let answer = try JSONObjectView(document, path: "", expected: "a list answer")
                var page: [(uri: String, subject: String)] = []
                for (index, node) in (try answer.array("items", expected: "an array of list items") ?? []).prefix(wanted).enumerated() {
                    let view = try JSONObjectView(node, path: "items[\(index)]", expected: "a list item object")
                    guard let subject = try view.object("subject", expected: "a profile object") else { throw view.missing("subject") }
                    page.append((try view.requiredString("uri"), try subject.requiredString("did")))
                }
                return (page, try answer.string("cursor"))
            }
            items += page
            guard !page.isEmpty, let next, next != cursor else { break }
            cursor = next
        }
        return items
    }
}
