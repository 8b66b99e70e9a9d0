extension MastodonSync {
    /// Makes, changes or deletes one of the account's lists (issue 37): `POST /api/v1/lists`
    /// `{title}`, `POST` and `DELETE /api/v1/lists/:id/accounts` `{account_ids: [id]}` (the
    /// account looked up by ``lookUp(_:)``), `DELETE /api/v1/lists/:id`. Mastodon adds to a list
    /// only an account the person follows: its refusal (422) is said so.
    ///
    /// - Throws: `.serverLacks` on a server without the endpoint (Takahē answers 405 to
    ///   `POST /api/v1/lists`), `.rejected` for an unknown list (404) or an account not followed.
    public func editList(_ edit: ListEdit) async throws(ServerError) -> ListEditOutcome {
        switch edit {
        case let .create(title):
            let url = client.server.url("/api/v1/lists")
            var body: [UInt8] = Array(#"{"title":"#.utf8)
            JSONLineEncoder.appendString(title, to: &body)
            body.append(UInt8(ascii: "}"))
            let response = try await client.send(.post, url, json: body, feature: "making lists", endpoint: "POST /api/v1/lists")
            let list = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                let view = try JSONObjectView(document, path: "", expected: "a list object")
                return TimelineList(id: try view.requiredID("id"), title: try view.string("title") ?? title)
            }
            return ListEditOutcome(created: list)
        case let .add(list, handle), let .remove(list, handle):
            let adding = if case .add = edit { true } else { false }
            let account = try await lookUp(handle)
            let url = client.server.url("/api/v1/lists/" + FormEncoding.escape(list) + "/accounts")
            var body: [UInt8] = Array(#"{"account_ids":["#.utf8)
            JSONLineEncoder.appendString(account.id, to: &body)
            body += Array("]}".utf8)
            let endpoint = (adding ? "POST" : "DELETE") + " /api/v1/lists/:id/accounts"
            do {
                _ = try await client.send(adding ? .post : .delete, url, json: body, feature: "changing lists", endpoint: endpoint)
            } catch {
                if adding, case let .rejected(url, 422, reason) = error {
                    throw .rejected(url: url, status: 422, reason: "Mastodon adds to a list only an account you follow: `timeline follow \(handle)` first"
                                    + (reason.map { " (it said: \($0))" } ?? ""))
                }
                throw error
            }
            return ListEditOutcome(account: account)
        case let .delete(list):
            let url = client.server.url("/api/v1/lists/" + FormEncoding.escape(list))
            _ = try await client.send(.delete, url, feature: "deleting lists", endpoint: "DELETE /api/v1/lists/:id")
            return ListEditOutcome()
        }
    }
}
