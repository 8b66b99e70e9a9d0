import Foundation
import Testing
import TimelineKit

extension TemporaryDirectory {
    /// A new, empty store in this directory.
    func store(_ name: String = "timeline.sqlite") throws -> TimelineStore {
        try TimelineStore(path: file(name))
    }

    /// Writes `bytes` to a file in this directory and returns its path.
    @discardableResult
    func write(_ bytes: [UInt8], to name: String = "input.jsonl") throws -> String {
        let path = file(name)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @discardableResult
    func write(_ text: String, to name: String = "input.jsonl") throws -> String {
        try write(Array(text.utf8), to: name)
    }
}

enum ImportFixtures {
    /// `Fixtures/sample-timeline.jsonl` at the package root.
    static let samplePath: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0 ..< 4 { url.deleteLastPathComponent() }  // Import, TimelineKitTests, Tests, file
        return url.appendingPathComponent("Fixtures/sample-timeline.jsonl").path
    }()

    static let alice = #"{"type":"user","id":"u1","handle":"alice","name":"Alice Example"}"#
    static let bob = #"{"type":"user","id":"u2","handle":"bob","name":"Bob"}"#

    /// A valid message line with `extra` fields spliced in before the closing brace.
    static func message(_ id: String, author: String = "u1", text: String = "hello",
                        createdAt: String = "2026-11-20T10:00:00Z", extra: String = "") -> String {
        #"{"type":"message","id":"\#(id)","author":"\#(author)","text":"\#(text)","created_at":"\#(createdAt)"\#(extra)}"#
    }

    /// Every message of the store, newest first.
    static func allMessages(_ store: TimelineStore) throws -> [Message] {
        var result: [Message] = []
        var cursor: TimelineCursor?
        repeat {
            let page = try store.timeline(limit: 500, after: cursor)
            result += page.messages
            cursor = page.nextCursor
        } while cursor != nil
        return result
    }

    /// Exports all of `store` into bytes.
    static func export(_ store: TimelineStore) throws -> [UInt8] {
        let exporter = JSONLinesExporter(store: store)
        var bytes: [UInt8] = []
        try exporter.export { (chunk: UnsafeRawBufferPointer) in bytes.append(contentsOf: chunk) }
        return bytes
    }
}

extension TimelineStore {
    /// Imports `text` written to a file in `directory`.
    @discardableResult
    func importText(_ text: String, in directory: TemporaryDirectory) throws -> ImportSummary {
        let path = try directory.write(text)
        return try JSONLinesImporter(store: self).importFile(atPath: path)
    }
}
