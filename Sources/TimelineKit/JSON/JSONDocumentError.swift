/// Why bytes are not a JSON document ``JSONNode/init(parsing:)`` reads, worded as every import
/// and sync words a JSON problem (`JSONProblem.sentence(field:)`), with where it is.
public struct JSONDocumentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The 1-based line of the place at fault, `nil` when no one place is.
    public let line: Int?
    /// The 1-based column (in Unicode scalars) of the place at fault, `nil` when no one place is.
    public let column: Int?
    /// What is wrong, as a sentence that ends with what to do where there is something to do.
    public let problem: String

    /// `line L, column C: problem`, or the problem alone.
    public var description: String {
        guard let line, let column else { return problem }
        return "line \(line), column \(column): \(problem)"
    }

    init(_ failure: JSONLineFailure, in bytes: [UInt8]) {
        let position = failure.offset.map { offset in bytes.withUnsafeBufferPointer { SourcePosition(offset: offset, in: $0) } }
        line = position?.line
        column = position?.column
        problem = failure.problem.sentence(field: failure.field)
    }
}
