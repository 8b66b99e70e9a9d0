import Foundation
import Testing
import TimelineKit

/// Detection reads the first MiB. A first value that says nothing of its format within it was
/// refused as "the input ends too early", while `--format mastodon` showed the real error
/// (issue 12, item 10): now the real error shows either way.
@Suite struct FormatDetectionWindowTests {
    static let bigContent = String(repeating: "x", count: (1 << 20) + 10)
    static let account = #""account":{"id":"9","acct":"a","username":"a"}"#

    private func importing(_ text: String) throws -> ImportError? {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let path = try directory.write(text, to: "home.json")
        do {
            try TimelineImporter(store: store).importFile(atPath: path)
            return nil
        } catch {
            return error
        }
    }

    @Test func aStatusHoldingMoreThanTheWindowBeforeItsAccountGetsTheDecodersError() throws {
        let status = #"{"id":"1","created_at":"2026-11-20T10:00:00Z","content":"\#(Self.bigContent)",\#(Self.account)}"#
        for document in ["[" + status + "]", status, "[\n  " + status + ",\n  " + status + "\n]"] {
            let error = try #require(try importing(document))
            // The decoder's own refusal of the oversized content, whatever its wording.
            #expect(error.field?.hasSuffix("content") == true, "\(error)")
            if case .unknownFormat = error.problem { Issue.record("\(error)") }
        }
    }

    @Test func aLargeStatusThatIsFineImportsWithoutFormat() throws {
        // Megabytes of an unknown field before the account: nothing wrong with it.
        let status = #"{"id":"1","created_at":"2026-11-20T10:00:00Z","content":"<p>hi</p>","pleroma":{"junk":"\#(Self.bigContent)"},\#(Self.account)}"#
        let directory = TemporaryDirectory()
        let store = try directory.store()
        var detected: FormatDetection?
        try TimelineImporter(store: store).importFile(atPath: try directory.write("[" + status + "]")) { detected = $0 }
        #expect(detected?.format == .mastodon)
        #expect(try store.message(id: "1")?.text == "hi")
    }

    @Test func aJSONLinesLineLongerThanTheWindowIsReportedAsTooLong() throws {
        let line = #"{"note":"\#(Self.bigContent)","type":"message"}"#
        let error = try #require(try importing(line + "\n"))
        #expect(error.problem == .lineTooLong(limit: 1_048_576), "\(error)")
        #expect(error.line == 1)
    }

    @Test func anArrayCutInsideItsFirstElementSaysSo() throws {
        let error = try #require(try importing(#"[{"id":"1","content":"\#(Self.bigContent)"#))
        guard case let .unknownFormat(reason) = error.problem else {
            Issue.record("\(error)")
            return
        }
        #expect(reason.hasPrefix("the input ends inside the first element of its JSON array"))
        #expect(try importing(#"[{"id":"1","#)?.problem == error.problem)
    }
}
