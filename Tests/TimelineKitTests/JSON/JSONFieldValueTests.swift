import Testing
@testable import TimelineKit

/// The field rules are written once: a value read from a JSON Lines line (a span of its bytes)
/// and the same value read into a tree (a Mastodon or Twitter document's node) give the same
/// result or the same error, for every rule and every kind of value.
@Suite struct JSONFieldValueTests {
    /// A rule's outcome, comparable across the two readers.
    private enum Outcome: Equatable {
        case value(String)
        case failure(offset: Int?, field: String?, problem: JSONProblem)
    }

    private static let values = [
        #""abc""#, #""""#, #""a\u00e9\n\"""#, #""\u0000x""#, #""12""#, #""1a""#,
        "12", "0", "-3", "1.5", "1e3", "99999999999999999999", "109301442871003451123",
        "true", "false", "null", "[1, 2]", #"{"a": 1}"#,
        #""2026-11-20T10:00:00Z""#, #""2026-11-20T10:00:00.123+02:00""#, #""2026-13-01T00:00:00Z""#,
        #""2026-11-20T10:00:00\u005A""#,
    ]

    private static func outcome<Result>(_ rule: () throws(JSONLineFailure) -> Result) -> Outcome {
        do throws(JSONLineFailure) {
            return .value(String(describing: try rule()))
        } catch {
            return .failure(offset: error.offset, field: error.field, problem: error.problem)
        }
    }

    /// Every rule applied to `value`, in order.
    private static func outcomes(of value: some JSONFieldValue) -> [Outcome] {
        [
            outcome { () throws(JSONLineFailure) in try value.string(at: "f") },
            outcome { () throws(JSONLineFailure) in try value.requiredString(at: "f") },
            outcome { () throws(JSONLineFailure) in try value.id(at: "f") },
            outcome { () throws(JSONLineFailure) in try value.requiredID(at: "f") },
            outcome { () throws(JSONLineFailure) in try value.bool(at: "f") },
            outcome { () throws(JSONLineFailure) in try value.count(at: "f", allowingDigitStrings: false) },
            outcome { () throws(JSONLineFailure) in try value.count(at: "f", allowingDigitStrings: true) },
            outcome { () throws(JSONLineFailure) in try value.rfc3339Time(at: "f") },
            .value(value.found),
        ]
    }

    @Test(arguments: values)
    func aValueFromALineAndTheSameValueFromATreeFollowTheSameRules(_ json: String) throws {
        // Two leading spaces: both readers must report the value's own offset, not the input's.
        let bytes = Array(("  " + json).utf8)
        let (fromLine, fromTree) = try bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            let span = try scanner.scanValue(depth: 0)
            var parser = JSONTreeParser(buffer)
            let node = try #require(try parser.nextDocument())
            return (Self.outcomes(of: JSONLineValue(span: span, line: buffer)), Self.outcomes(of: node))
        }
        #expect(fromLine == fromTree)
        #expect(fromLine.count == 9)
    }

    @Test func theRulesSayWhatTheyFoundAndWhere() throws {
        let bytes = Array(#"  "12""#.utf8)
        let outcomes = try bytes.withUnsafeBufferPointer { buffer in
            var scanner = JSONScanner(buffer)
            return Self.outcomes(of: JSONLineValue(span: try scanner.scanValue(depth: 0), line: buffer))
        }
        // A digit string is a count only where the format allows it.
        #expect(outcomes[5] == .failure(offset: 2, field: "f", problem: .wrongType(expected: "a non-negative integer", found: #"a string, "12""#)))
        #expect(outcomes[6] == .value("12"))
        #expect(outcomes[2] == .value("Optional(\"12\")"))
    }

    @Test func nullIsAbsentWhereOptionalAndTheWrongTypeWhereRequired() throws {
        let node = JSONNode(value: .null, offset: 7)
        #expect(try node.string(at: "f") == nil)
        #expect(try node.count(at: "f", allowingDigitStrings: false) == 0)
        #expect(Self.outcome { () throws(JSONLineFailure) in try node.requiredID(at: "a.id") }
            == .failure(offset: 7, field: "a.id", problem: .wrongType(expected: "an ID: a string (or a non-negative integer)", found: "null")))
    }

    @Test func aHugeCountIsRefusedWithItsDigitsCutToAReadableLength() {
        let digits = String(repeating: "9", count: 100)
        let node = JSONNode(value: .number(digits, isInteger: true, isNegative: false), offset: 0)
        #expect(Self.outcome { () throws(JSONLineFailure) in try node.count(at: "likes", allowingDigitStrings: false) }
            == .failure(offset: 0, field: "likes", problem: .numberTooLarge(String(repeating: "9", count: 60) + "…")))
    }
}
