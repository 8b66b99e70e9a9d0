/// A place in a file given by its byte offset, as people read it: 1-based line and column.
struct SourcePosition: Equatable {
    var line: Int
    /// Counted in Unicode scalars, as editors count characters.
    var column: Int

    /// The position of byte `offset` of `bytes`. Lines end with LF (a CR before it is part of
    /// the previous line's ending).
    init(offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        self.init(line: 1, column: 1)
        advance(over: UnsafeBufferPointer(rebasing: bytes[..<min(offset, bytes.count)]))
    }

    init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    /// Moves past `bytes`, which follow this position.
    mutating func advance(over bytes: UnsafeBufferPointer<UInt8>) {
        for byte in bytes {
            if byte == 0x0A {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                column += 1
            }
        }
    }
}
