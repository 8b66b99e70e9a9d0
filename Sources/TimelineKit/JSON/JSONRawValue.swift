/// The bytes of one value exactly as a document wrote them: what a client sends back unchanged
/// when it must not rewrite what it does not understand (Bluesky's preferences, issue 34:
/// `putPreferences` replaces the whole list, so every preference read is sent back as read).
enum JSONRawValue {
    /// Where the value that starts at `offset` of `bytes` ends: the range of its bytes, read by
    /// the strict scanner (a value a parser read already; `bytes` is the document it read).
    static func range(at offset: Int, in bytes: [UInt8]) throws(JSONLineFailure) -> Range<Int> {
        let result: Result<Range<Int>, JSONLineFailure> = bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer, at: offset)
            do throws(JSONLineFailure) {
                let span = try scanner.scanValue(depth: 0)
                return .success(span.start ..< span.end)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }
}
