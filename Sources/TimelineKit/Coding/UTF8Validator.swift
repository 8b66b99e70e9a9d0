/// Tells whether bytes were valid UTF-8, given the `String` that `String(decoding:as:)` made of
/// them.
///
/// `String(decoding:as:)` validates as it copies, replacing each ill-formed sequence with
/// U+FFFD: the bytes were valid exactly when the string's UTF-8 is the same bytes, which is
/// always so for ASCII. Checking that costs a fraction of validating a second time. (`String(validating:as:)` answers directly, but
/// goes through an unspecialized generic path that cost more than the rest of the decoding.)
enum UTF8Validator {
    /// Whether all bytes are ASCII, which `String(decoding:as:)` always keeps as they are.
    /// Reads eight bytes at a time; the last word overlaps the one before it rather than
    /// falling back to single bytes.
    @inline(__always)
    static func isASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = bytes.count
        guard let base = bytes.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        let highBits: UInt64 = 0x8080_8080_8080_8080
        if count >= 8 {
            var seen: UInt64 = 0
            var i = 0
            while count - i > 32 {
                // In bounds: i + 32 < count.
                seen |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: i + 8, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: i + 16, as: UInt64.self)
                    | raw.loadUnaligned(fromByteOffset: i + 24, as: UInt64.self)
                i += 32
            }
            while count - i > 8 {
                // In bounds: i + 8 < count.
                seen |= raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                i += 8
            }
            // In bounds: count >= 8, so the last eight bytes start at count - 8 >= 0.
            seen |= raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self)
            return seen & highBits == 0
        }
        var seen: UInt8 = 0
        for i in 0 ..< count {
            // In bounds: i < count.
            seen |= base[i]
        }
        return seen < 0x80
    }

    static func isIdentical(_ string: String, to bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        // A string made by `String(decoding:as:)` is native, so its UTF-8 is contiguous; the
        // element-by-element comparison is only a fallback.
        let result = string.utf8.withContiguousStorageIfAvailable { decoded in
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
        return result ?? string.utf8.elementsEqual(bytes)
    }
}
