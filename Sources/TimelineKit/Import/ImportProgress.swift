/// How far an import has read, for a progress line on standard error.
public struct ImportProgress: Sendable, Equatable {
    /// Lines read so far, blank lines included.
    public var lines: Int
    /// Bytes read so far.
    public var bytes: Int
    /// The size of the input when it is known in advance (a regular file), else `nil` (a pipe).
    public var totalBytes: Int?

    public init(lines: Int, bytes: Int, totalBytes: Int?) {
        self.lines = lines
        self.bytes = bytes
        self.totalBytes = totalBytes
    }

    /// The part done, from 0 to 1, when the total is known.
    public var fractionDone: Double? {
        guard let totalBytes, totalBytes > 0 else { return nil }
        return min(1, Double(bytes) / Double(totalBytes))
    }
}
