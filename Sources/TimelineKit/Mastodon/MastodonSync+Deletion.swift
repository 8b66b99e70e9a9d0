extension MastodonSync {
    /// Deletes the account's own status `id` (a stored, namespaced ID) at the server
    /// (`DELETE /api/v1/statuses/:id`) and then here. A status the server no longer has (404)
    /// is gone either way: it is forgotten here too.
    ///
    /// - Throws: `.replyTargetElsewhere` when `id` is not a status of this server, the
    ///   client's errors (`.rejected` with the server's reason: not yours), `.store`.
    public func deleteStatus(_ id: String) async throws(ServerError) {
        guard let serverID = namespace.serverID(of: id) else {
            throw .replyTargetElsewhere(messageID: id, server: client.server.baseURL)
        }
        let url = client.server.url("/api/v1/statuses/" + FormEncoding.escape(serverID))
        do {
            _ = try await client.send(.delete, url)
        } catch {
            guard case let .rejected(_, status, _) = error, status == 404 else { throw error }
        }
        _ = try storeCall { () throws(TimelineStoreError) in try store.deleteMessages(ids: [id]) }
    }
}
