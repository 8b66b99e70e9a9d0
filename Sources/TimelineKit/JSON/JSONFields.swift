/// The small JSON documents of logging in (a server's answers, the accounts file), read with the
/// import's strict parser into ``JSONNode`` trees rather than through `Decodable`: every
/// `Decodable` type adds protocol conformance records that the Swift runtime scans on every
/// launch, `show`'s included.
enum JSONFields {
    /// The one JSON document in `bytes`; a failure carries the offset where it was found.
    static func document(_ bytes: [UInt8]) throws(JSONLineFailure) -> JSONNode {
        let result: Result<JSONNode, JSONLineFailure> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONTreeParser(buffer)
            do throws(JSONLineFailure) {
                guard let node = try parser.nextDocument() else {
                    return .failure(JSONLineFailure(offset: 0, field: nil, problem: .malformedJSON("the document is empty")))
                }
                let end = parser.index
                if try parser.nextDocument() != nil {
                    return .failure(JSONLineFailure(offset: end, field: nil, problem: .malformedJSON("more follows the document")))
                }
                return .success(node)
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// Where byte `offset` is, as a person finds it in an editor: `line 3, column 14`.
    static func position(of offset: Int, in bytes: [UInt8]) -> String {
        let place = bytes.withUnsafeBufferPointer { SourcePosition(offset: offset, in: $0) }
        return "line \(place.line), column \(place.column)"
    }
}

extension JSONNode {
    /// The member `key` as text: a string, or an integer's digits (IDs of older servers).
    /// `nil` when absent, `null` or of another kind.
    func text(_ key: String) -> String? {
        switch self[key]?.value {
        case let .string(text)?: text
        case let .number(digits, isInteger: true, isNegative: false)?: digits
        default: nil
        }
    }
}
