/// A failure inside one line, before the reader adds the file name, line number and column.
struct JSONLineFailure: Error {
    /// The byte offset in the line of the place at fault, or `nil` when no one place is (a
    /// missing field).
    var offset: Int?
    /// The field's path (`likes`, `attachments[1].kind`) when the failure is inside one.
    var field: String?
    var problem: JSONProblem
}
