import Testing
@testable import TimelineKit

/// `UTF8IDSet`: the IDs a snapshot preview looks for, asked about by the bytes in the payload.
@Suite struct UTF8IDSetTests {
    private func contains(_ set: UTF8IDSet, bytesOf id: String) -> Bool {
        Array(id.utf8).withUnsafeBufferPointer { set.contains($0) }
    }

    /// As many IDs as a window's users and more (the slots grow), each found by its bytes and by
    /// itself, and none that is not one of them: prefixes, extensions, the empty ID, other scripts.
    @Test func holdsExactlyTheIDsInserted() {
        let ids = (0 ..< 300).map { "11300000065530\($0 * 7)" } + ["", "did:plc:ab", "é", "日本"]
        let set = UTF8IDSet(ids + ids.prefix(10))
        for id in ids {
            #expect(contains(set, bytesOf: id), "\(id)")
            #expect(set.contains(id))
        }
        for other in ["11300000065530", "113000000655301", "1130000006553070x", "did:plc:a", "e", "日", "x"] {
            #expect(!contains(set, bytesOf: other), "\(other)")
        }
        #expect(!set.isEmpty)
        #expect(UTF8IDSet().isEmpty)
        #expect(!contains(UTF8IDSet(), bytesOf: ""))
    }
}
