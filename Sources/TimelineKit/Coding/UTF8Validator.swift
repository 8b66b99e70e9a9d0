/// Tells whether bytes were valid UTF-8, given the `String` that `String(decoding:as:)` made of
/// them.
///
/// `String(decoding:as:)` validates as it copies, replacing each ill-formed sequence with
/// U+FFFD: the bytes were valid exactly when the string's UTF-8 is the same bytes, which is
/// always so for ASCII. Checking that costs a fraction of validating a second time. (`String(validating:as:)` answers directly, but
/// goes through an unspecialized generic path that cost more than the rest of the decoding.)
enum UTF8Validator {
    /// Whether all bytes are ASCII, which `String(decoding:as:)` always keeps as they are.
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard count > 0, let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var i = 0
        while count - i >= 8 {
            // In bounds: i + 8 <= count.
            guard raw.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 else {
                return false
            }
            i += 8
        }
        while i < count {
            // In bounds: i < count.
            guard base[i] < 0x80 else { return false }
            i += 1
        }
        return true
    }

    static func isIdentical(_ string: String, to bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var string = string
        return string.withUTF8 { decoded in
            let count = bytes.count
            guard decoded.count == count else { return false }
            guard count > 0, let left = decoded.baseAddress, let right = bytes.baseAddress else { return true }
            let leftRaw = UnsafeRawPointer(left)
            let rightRaw = UnsafeRawPointer(right)
            var i = 0
            while count - i >= 8 {
                // In bounds: i + 8 <= count, the length of both buffers.
                let a = leftRaw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let b = rightRaw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                guard a == b else { return false }
                i += 8
            }
            while i < count {
                // In bounds: i < count, the length of both buffers.
                guard left[i] == right[i] else { return false }
                i += 1
            }
            return true
        }
    }
}
