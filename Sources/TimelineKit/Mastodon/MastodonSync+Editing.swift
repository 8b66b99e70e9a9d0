extension MastodonSync {
    /// What an edit must send again so that it changes the text only: Mastodon's
    /// `PUT /api/v1/statuses/:id` replaces the content warning, the media and the poll with what
    /// the request holds, and drops what it leaves out.
    struct EditedStatus {
        var serverID: String
        var contentWarning: String
        var sensitive: Bool
        var mediaIDs: [String]
        var language: String?
        var hasPoll: Bool
        /// The server's ID of the status's author.
        var authorID: String?
        /// Who may see it (an edit cannot change it; a server may anyway).
        var visibility: PostVisibility?
    }

    /// The text of the account's own status `id` as written (`GET /api/v1/statuses/:id/source`:
    /// plain text, mentions and links as typed), to start an edit from.
    ///
    /// - Throws: `.replyTargetElsewhere` when `id` is not a status of this server, the client's
    ///   errors (`.rejected` with 404 for a status that is gone or not yours).
    public func editableText(of id: String) async throws(ServerError) -> String {
        let serverID = try ownStatusServerID(id)
        let url = client.server.url("/api/v1/statuses/" + FormEncoding.escape(serverID) + "/source")
        let response = try await client.send(.get, url)
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            try JSONObjectView(document, path: "", expected: "a status source object").string("text") ?? ""
        }
    }

    /// Replaces the text of the account's own status `id` with `text`
    /// (`PUT /api/v1/statuses/:id`), sending again its content warning, sensitivity, media and
    /// language as the server has them now (read first with `GET /api/v1/statuses/:id`), and
    /// stores the status the server answers with: edited (`edited_at`), read (you wrote it).
    ///
    /// - Throws: ``PostChangeRefusal/notYours`` for a status someone else wrote, and
    ///   ``PostChangeRefusal/editWouldResetPoll`` for a status with a poll (the API would replace
    ///   it and its votes), nothing sent; `.replyTargetElsewhere` when `id` is not a
    ///   status of this server; `.serverLacks` naming `PUT /api/v1/statuses/:id` for a server
    ///   without edits (nothing stored); the client's errors (`.rejected`: 403 not yours, 422 too long).
    public func edit(_ id: String, text: String) async throws -> Message {
        try await editing(id, text: text).message
    }

    /// ``edit(_:text:)``, with the audience the server answered with when it is not the one the
    /// status had (Takahē makes an edited unlisted post public).
    func editing(_ id: String, text: String) async throws -> (message: Message, visibilityChange: VisibilityChange?) {
        let current = try await editedStatus(id)
        if let own = ownUserID.flatMap(namespace.serverID), let author = current.authorID, author != own {
            throw PostChangeRefusal.notYours
        }
        if current.hasPoll { throw PostChangeRefusal.editWouldResetPoll }
        var body: [UInt8] = Array(#"{"status":"#.utf8)
        JSONLineEncoder.appendString(text, to: &body)
        body += Array(#","spoiler_text":"#.utf8)
        JSONLineEncoder.appendString(current.contentWarning, to: &body)
        body += Array(#","sensitive":\#(current.sensitive),"media_ids":["#.utf8)
        for (index, mediaID) in current.mediaIDs.enumerated() {
            if index > 0 { body.append(UInt8(ascii: ",")) }
            JSONLineEncoder.appendString(mediaID, to: &body)
        }
        body.append(UInt8(ascii: "]"))
        if let language = current.language {
            body += Array(#","language":"#.utf8)
            JSONLineEncoder.appendString(language, to: &body)
        }
        body.append(UInt8(ascii: "}"))
        let url = client.server.url("/api/v1/statuses/" + FormEncoding.escape(current.serverID))
        let response = try await client.send(.put, url, json: body, feature: "editing posts", endpoint: "PUT /api/v1/statuses/:id")
        let message = try storeOwn(try Self.status(in: response, from: url, namespace: namespace), from: url)
        let after = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            try JSONObjectView(document, path: "", expected: "a status object").string("visibility").flatMap(PostVisibility.init(rawValue:))
        }
        guard let before = current.visibility, let after, before != after else { return (message, nil) }
        return (message, VisibilityChange(before: before, after: after))
    }

    /// Stores a status of the account's own that the server answered with, read, and answers it
    /// as stored.
    func storeOwn(_ answer: (String, DecodedTimeline), from url: String) throws(ServerError) -> Message {
        let (id, timeline) = answer
        var stored = timeline
        if var message = timeline.message(id: id) {
            message.isRead = true
            stored.add(message)
        }
        try storeCall { () throws(TimelineStoreError) in
            try store.storeWrite { transaction throws(TimelineStoreError) in
                try transaction.upsert(users: stored.users)
                try transaction.upsert(messages: stored.messages)
            }
        }
        guard let message = try storeCall({ () throws(TimelineStoreError) in try store.message(id: id) }) else {
            throw .invalidResponse(url: url, problem: "the status it answered with was not stored.")
        }
        return message
    }

    /// The server's ID of the account's own status `id` (a stored, namespaced ID, or the
    /// server's own).
    private func ownStatusServerID(_ id: String) throws(ServerError) -> String {
        guard id.contains("/") else { return id }
        guard let serverID = namespace.serverID(of: id) else {
            throw .replyTargetElsewhere(messageID: id, server: client.server.baseURL)
        }
        return serverID
    }

    /// The status `id` as the server has it now: what an edit sends again.
    private func editedStatus(_ id: String) async throws(ServerError) -> EditedStatus {
        let serverID = try ownStatusServerID(id)
        let url = client.server.url("/api/v1/statuses/" + FormEncoding.escape(serverID))
        let response = try await client.send(.get, url)
        return try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
            let view = try JSONObjectView(document, path: "", expected: "a status object")
            var mediaIDs: [String] = []
            for (index, element) in (try view.array("media_attachments", expected: "an array of media attachments") ?? []).enumerated() {
                let attachment = try JSONObjectView(element, path: view.path("media_attachments[\(index)]"), expected: "a media attachment object")
                mediaIDs.append(try attachment.requiredID("id"))
            }
            return EditedStatus(serverID: serverID, contentWarning: try view.string("spoiler_text") ?? "",
                                sensitive: try view.bool("sensitive") ?? false, mediaIDs: mediaIDs,
                                language: try view.string("language"), hasPoll: view.field("poll") != nil,
                                authorID: try view.object("account", expected: "an account object")?.requiredID("id"),
                                visibility: try view.string("visibility").flatMap(PostVisibility.init(rawValue:)))
        }
    }
}
