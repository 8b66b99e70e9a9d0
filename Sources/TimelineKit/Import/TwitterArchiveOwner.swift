#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

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
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while bytes.count <= 1 << 20 {
            // In bounds: reads at most chunk.count bytes into chunk's own storage.
            let got = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if got > 0 {
                bytes += chunk[..<got]
            } else if got == 0 {
                return bytes
            } else if errno != EINTR {
                return nil
            }
        }
        return nil
    }
}
