/// Why a JSON Lines export stopped. What was written before the error is incomplete: write to a
/// temporary file and rename it into place once the export succeeds.
public enum ExportError<SinkFailure: Error>: Error, CustomStringConvertible {
    /// Reading from the store failed.
    case store(TimelineStoreError)
    /// The sink refused the bytes (for a file descriptor: a `FileSystemError`, e.g. disk full).
    case sink(SinkFailure)

    /// Neutralised for a terminal (`TerminalText.body`): a sink's error may name a path.
    public var description: String {
        switch self {
        case let .store(error): TerminalText.body("The export stopped while reading the timeline: \(error)")
        case let .sink(error): TerminalText.body("The export stopped while writing: \(error). The output is incomplete.")
        }
    }
}

extension ExportError: Equatable where SinkFailure: Equatable {}
