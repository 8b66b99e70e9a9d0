extension BlueskySync {
    /// How long one blob upload may take: a megabyte at 256 KB/s with room to spare, rather
    /// than the 30 seconds of a JSON call.
    static let blobUploadTimeout: Duration = .seconds(120)

    /// Uploads `bytes` to the account's PDS (`com.atproto.repo.uploadBlob`, the bytes as the
    /// body with `mimeType` as its `Content-Type`) and returns the blob the server made, to name
    /// in a record (a picture, a link card's thumbnail). The PDS keeps it only if a record
    /// names it soon; uploading the same bytes again gives the same CID.
    ///
    /// Sizes are the caller's to check before (``BlueskyBlob/imageSizeLimit`` for an image):
    /// this sends what it is given, and the server's refusal is the error.
    ///
    /// - Throws: `.rejected` with the server's reason (`BlobTooLarge`), `.invalidResponse`
    ///   when the answer is not a blob, or any other `ServerError`.
    package func uploadBlob(_ bytes: [UInt8], mimeType: String) async throws(ServerError) -> BlueskyBlob {
        let nsid = "com.atproto.repo.uploadBlob"
        let response = try await client.procedure(nsid, bytes: bytes, contentType: mimeType, timeout: Self.blobUploadTimeout)
        return try ServerResponseReader.read(response, from: client.host.url("/xrpc/" + nsid)) { document throws(JSONLineFailure) in
            try BlueskyBlob.read(answer: document)
        }
    }
}
