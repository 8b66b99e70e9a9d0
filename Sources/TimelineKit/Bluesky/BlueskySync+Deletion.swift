extension BlueskySync {
    /// Deletes the account's own post `uri` (`at://DID/app.bsky.feed.post/KEY`) at its PDS
    /// (`com.atproto.repo.deleteRecord`, which succeeds for a record already gone) and then here.
    ///
    /// - Throws: `.replyTargetElsewhere` when `uri` is not a post of this account's repository,
    ///   the client's errors, `.store`.
    public func deletePost(_ uri: String) async throws(ServerError) {
        guard let session = client.currentSession, let parsed = ATURI(uri), parsed.authority == session.did,
              parsed.collection == "app.bsky.feed.post", let recordKey = parsed.recordKey else {
            throw .replyTargetElsewhere(messageID: uri, server: client.service.baseURL)
        }
        var body: [UInt8] = Array(#"{"repo":"#.utf8)
        JSONLineEncoder.appendString(session.did, to: &body)
        body += Array(#","collection":"app.bsky.feed.post","rkey":"#.utf8)
        JSONLineEncoder.appendString(recordKey, to: &body)
        body.append(UInt8(ascii: "}"))
        _ = try await client.procedure("com.atproto.repo.deleteRecord", json: body)
        _ = try pager.storeCall { () throws(TimelineStoreError) in try store.deleteMessages(ids: [uri]) }
    }
}
