import Testing
import TimelineKit

/// TimelineKit's JSON reader as another target sees it: the public `JSONNode(parsing:)` that
/// issue 35 added for JSON Feed, used here from outside the module as an embedder would.
@Suite struct JSONNodeParsingTests {
    @Test func oneDocumentIsReadWithItsMembersAndOffsets() throws {
        let text = #"{"a": [1, "two", null], "b": {"c": true}}"#
        let node = try JSONNode(parsing: Array(text.utf8))
        #expect(node["a"]?.arrayValue?.count == 3)
        #expect(node["a"]?.arrayValue?[1].stringValue == "two")
        #expect(node["a"]?.arrayValue?[2].nonNull == nil)
        #expect(node["b"]?["c"].map { if case .bool(true) = $0.value { true } else { false } } == true)
        #expect(node["b"]?.offset == text.utf8.distance(from: text.utf8.startIndex, to: text.range(of: "{\"c\"")!.lowerBound))
    }

    @Test func aByteOrderMarkBeforeTheDocumentIsSkipped() throws {
        #expect(try JSONNode(parsing: [0xEF, 0xBB, 0xBF] + Array("\"x\"".utf8)).stringValue == "x")
    }

    @Test(arguments: ["", "   ", "{} {}", "{\"a\": }", "[1,]"])
    func anythingButOneDocumentIsRefusedWithASentence(_ text: String) {
        do throws(JSONDocumentError) {
            _ = try JSONNode(parsing: Array(text.utf8))
            Issue.record("\(text.debugDescription) was read as one document")
        } catch {
            #expect(!error.problem.isEmpty)
        }
    }

    @Test func theErrorNamesTheLineAndColumnWhereTheLiteralBreaks() {
        let broken = "  \"a\": tru"
        do throws(JSONDocumentError) {
            _ = try JSONNode(parsing: Array("{\n\(broken)\n}".utf8))
            Issue.record("a broken literal was read")
        } catch {
            // The reader stops at the line feed where `true` should go on.
            #expect(error.line == 2)
            #expect(error.column == broken.count + 1)
            #expect(error.description.hasPrefix("line 2, column \(broken.count + 1): malformed JSON"))
        }
    }
}
