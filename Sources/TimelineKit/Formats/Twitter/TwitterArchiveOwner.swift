/// The owner of a Twitter archive, read from the `account.js` beside its `tweets.js`: archive
/// tweets carry no `user`, because every one of them is the owner's.
///
/// `account.js` holds `window.YTD.account.part0 = [{"account": {"accountId": "…",
/// "username": "…", "accountDisplayName": "…"}}]`.
enum TwitterArchiveOwner {
    /// The owner, when `tweets` is an archive's `tweets.js` and `account.js` lies beside `path`
    /// and names one; else `nil` (the decoder then reports the tweets' missing author).
    static func owner(besideTweetsAt path: String, tweets: [UInt8]) -> User? {
        let isArchive = tweets.withUnsafeBufferPointer { APIDocumentReader.archiveAssignmentEnd($0, from: 0) != nil }
        guard isArchive else { return nil }
        let directory = path.lastIndex(of: "/").map { String(path[...$0]) } ?? ""
        guard let bytes = contents(ofFileAt: directory + "account.js") else { return nil }
        return bytes.withUnsafeBufferPointer { buffer -> User? in
            var parser = JSONTreeParser(buffer, at: APIDocumentReader.contentStart(of: buffer))
            guard let document = try? parser.nextDocument(),
                  let account = document.arrayValue?.first?["account"],
                  let id = account["accountId"]?.stringValue, !id.isEmpty,
                  let username = account["username"]?.stringValue, !username.isEmpty
            else { return nil }
            let name = account["accountDisplayName"]?.stringValue ?? ""
            return User(id: id, handle: username, name: name.isEmpty ? username : name, url: "https://twitter.com/\(username)")
        }
    }

    /// A small file's bytes (at most 1 MiB), or `nil`.
    private static func contents(ofFileAt path: String) -> [UInt8]? {
        guard let file = try? FileDescriptor.openForReading(path) else { return nil }
        defer { file.close() }
        guard let bytes = try? file.read(upTo: (1 << 20) + 1), bytes.count <= 1 << 20 else { return nil }
        return bytes
    }
}
