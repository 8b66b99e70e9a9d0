/// A strict, validating JSON scanner over the UTF-8 bytes of one line (RFC 8259).
///
/// It checks everything as it goes, including values that will be ignored (strings must be UTF-8,
/// escapes must be complete and surrogates paired), but builds nothing: it reports where values
/// are, and the caller makes a `String` only of the fields it keeps.
///
/// Every read of `bytes[i]` is preceded by a check that `i < bytes.count`, or goes through
/// `byte(at:)`, which returns 0 past the end (0 cannot start or continue any JSON token, and a
/// raw 0 inside a string is an error either way).
struct JSONScanner {
    /// Deeper nesting is refused: each level takes stack space. The deepest answer timeline
    /// asks for is a Bluesky thread of `parentHeight` 80: its answer and thread objects, a level
    /// a parent, and a post view of up to 13 more (a record-with-media embed quoting a post with
    /// its own embeds, as recorded in Fixtures/Bluesky): 95. The limit leaves a third again for
    /// embeds deeper than recorded; JSONDepthTests reads that thread and would fail were the
    /// thread asked deeper than this allows.
    static let maximumDepth = 128

    let bytes: UnsafeBufferPointer<UInt8>
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int = 0) {
        self.bytes = bytes
        self.index = index
    }

    var isAtEnd: Bool { index >= bytes.count }

    @inline(__always)
    func byte(at position: Int) -> UInt8 {
        // In bounds: position < count is checked before the read.
        position < bytes.count ? bytes[position] : 0
    }

    @inline(__always)
    var current: UInt8 { byte(at: index) }

    @inline(__always)
    mutating func skipWhitespace() {
        while index < bytes.count {
            // In bounds: index < count by the loop condition.
            switch bytes[index] {
            case 0x20, 0x09, 0x0D, 0x0A: index += 1
            default: return
            }
        }
    }

    /// Consumes `byte` (after optional whitespace) or fails naming what was expected.
    @inline(__always)
    mutating func expect(_ byte: UInt8, _ what: String) throws(JSONLineFailure) {
        skipWhitespace()
        guard current == byte else { throw unexpected(expected: what) }
        index += 1
    }

    // MARK: Values

    /// Scans any value at `index` (after whitespace) and returns where it is.
    mutating func scanValue(depth: Int) throws(JSONLineFailure) -> JSONSpan {
        skipWhitespace()
        var value = JSONSpan()
        value.start = index
        switch current {
        case UInt8(ascii: "\""):
            value.kind = .string
            value.hasEscapes = try scanString()
        case UInt8(ascii: "{"):
            value.kind = .object
            try skipObject(depth: depth + 1)
        case UInt8(ascii: "["):
            value.kind = .array
            try skipArray(depth: depth + 1)
        case UInt8(ascii: "t"):
            value.kind = .trueLiteral
            try scanLiteral("true")
        case UInt8(ascii: "f"):
            value.kind = .falseLiteral
            try scanLiteral("false")
        case UInt8(ascii: "n"):
            value.kind = .null
            try scanLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0") ... UInt8(ascii: "9"):
            value.kind = .number
            (value.isInteger, value.isNegative) = try scanNumber()
        default:
            throw unexpected(expected: "a value (a string, number, object, array, true, false or null)")
        }
        value.end = index
        return value
    }

    /// Scans an object's members, skipping every value.
    mutating func skipObject(depth: Int) throws(JSONLineFailure) {
        try forEachMember(depth: depth) { (scanner: inout JSONScanner, _: JSONSpan) throws(JSONLineFailure) in
            _ = try scanner.scanValue(depth: depth)
        }
    }

    /// Scans the object at `index` and calls `member` with each key, positioned at its value,
    /// which `member` must consume.
    mutating func forEachMember(
        depth: Int, _ member: (inout JSONScanner, JSONSpan) throws(JSONLineFailure) -> Void
    ) throws(JSONLineFailure) {
        guard depth <= Self.maximumDepth else { throw tooDeep() }
        index += 1  // the `{` the caller saw
        skipWhitespace()
        if current == UInt8(ascii: "}") {
            index += 1
            return
        }
        while true {
            skipWhitespace()
            guard current == UInt8(ascii: "\"") else {
                throw unexpected(expected: "a field name in double quotes")
            }
            var key = JSONSpan()
            key.kind = .string
            key.start = index
            key.hasEscapes = try scanString()
            key.end = index
            try expect(UInt8(ascii: ":"), "':' after the field name")
            try member(&self, key)
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "}"):
                index += 1
                return
            default:
                throw unexpected(expected: "',' or '}' after a field's value")
            }
        }
    }

    /// Scans an array's elements, skipping every value.
    mutating func skipArray(depth: Int) throws(JSONLineFailure) {
        try forEachElement(depth: depth) { (scanner: inout JSONScanner, _: Int) throws(JSONLineFailure) in
            _ = try scanner.scanValue(depth: depth)
        }
    }

    /// Scans the array at `index` and calls `element` with each element's index, positioned at
    /// the element, which `element` must consume.
    mutating func forEachElement(
        depth: Int, _ element: (inout JSONScanner, Int) throws(JSONLineFailure) -> Void
    ) throws(JSONLineFailure) {
        guard depth <= Self.maximumDepth else { throw tooDeep() }
        index += 1  // the `[` the caller saw
        skipWhitespace()
        if current == UInt8(ascii: "]") {
            index += 1
            return
        }
        var count = 0
        while true {
            try element(&self, count)
            count += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                index += 1
            case UInt8(ascii: "]"):
                index += 1
                return
            default:
                throw unexpected(expected: "',' or ']' after an array element")
            }
        }
    }

    private mutating func scanLiteral(_ literal: StaticString) throws(JSONLineFailure) {
        let start = index
        let length = literal.utf8CodeUnitCount
        for offset in 0 ..< length where byte(at: start + offset) != literal.utf8Start[offset] {
            index = start + offset
            throw unexpected(expected: "the literal \(literal)")
        }
        index = start + length
    }

    /// Scans a number by RFC 8259's grammar: `-? (0 | [1-9][0-9]*) (.[0-9]+)? ([eE][+-]?[0-9]+)?`.
    private mutating func scanNumber() throws(JSONLineFailure) -> (isInteger: Bool, isNegative: Bool) {
        var isInteger = true
        let isNegative = current == UInt8(ascii: "-")
        if isNegative { index += 1 }
        if current == UInt8(ascii: "0") {
            index += 1
            if isDigit(current) {
                throw unexpected(expected: "no digit after a leading 0 (JSON numbers have no leading zeros)")
            }
        } else {
            try scanDigits()
        }
        if current == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            try scanDigits()
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { index += 1 }
            try scanDigits()
        }
        return (isInteger, isNegative)
    }

    private mutating func scanDigits() throws(JSONLineFailure) {
        guard isDigit(current) else { throw unexpected(expected: "a digit") }
        repeat { index += 1 } while isDigit(current)
    }

    @inline(__always)
    private func isDigit(_ byte: UInt8) -> Bool {
        byte &- UInt8(ascii: "0") < 10
    }

    // MARK: Strings

    /// Scans the string whose opening quote is at `index`, validating its UTF-8 and escapes, and
    /// leaves `index` past the closing quote. Returns whether it holds escapes.
    @inline(__always)
    mutating func scanString() throws(JSONLineFailure) -> Bool {
        let opening = index
        let count = bytes.count
        var position = index + 1
        var hasEscapes = false
        while true {
            // Eight plain ASCII bytes at a time: the bulk of most strings.
            // In bounds: the loop reads bytes position ..< position + 8, and position + 8 <= count;
            // count > 0 here (the opening quote is in the buffer), so baseAddress is not nil.
            while count - position >= 8 {
                let word = UnsafeRawPointer(bytes.baseAddress! + position).loadUnaligned(as: UInt64.self)
                if Self.needsAttention(word) { break }
                position += 8
            }
            guard position < count else {
                index = opening
                throw failure(.malformedJSON("a string starts here but does not end; a closing \" is missing"))
            }
            // In bounds: position < count was checked just above.
            let byte = bytes[position]
            if byte == UInt8(ascii: "\"") {
                index = position + 1
                return hasEscapes
            } else if byte == UInt8(ascii: "\\") {
                hasEscapes = true
                position = try scanEscape(at: position)
            } else if byte < 0x20 {
                index = position
                throw failure(.malformedJSON("a control character (byte \(Self.hex(byte, digits: 2))) must be escaped inside a string, e.g. as \\n, \\t or \\u001b"))
            } else if byte < 0x80 {
                position += 1
            } else {
                position = try scanUTF8Sequence(at: position)
            }
        }
    }

    /// Whether any of the eight bytes in `word` is `"`, `\`, a control character or non-ASCII
    /// (the classic "has zero byte" and "has byte less than" bit tricks; exact for the question
    /// "any byte?", which is all this asks).
    @inline(__always)
    static func needsAttention(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22)
        let backslash = word ^ (ones &* 0x5C)
        let hasQuote = (quote &- ones) & ~quote
        let hasBackslash = (backslash &- ones) & ~backslash
        let hasControl = (word &- ones &* 0x20) & ~word
        return ((hasQuote | hasBackslash | hasControl) & highBits) | (word & highBits) != 0
    }

    /// Validates the escape whose backslash is at `position`; returns the position after it.
    private mutating func scanEscape(at position: Int) throws(JSONLineFailure) -> Int {
        switch byte(at: position + 1) {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"),
             UInt8(ascii: "f"), UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            return position + 2
        case UInt8(ascii: "u"):
            guard let unit = hex4(at: position + 2) else {
                index = position
                throw failure(.malformedJSON("\\u must be followed by four hexadecimal digits"))
            }
            switch unit {
            case 0xD800 ... 0xDBFF:
                if byte(at: position + 6) == UInt8(ascii: "\\"), byte(at: position + 7) == UInt8(ascii: "u"),
                   let low = hex4(at: position + 8), (0xDC00 ... 0xDFFF).contains(low) {
                    return position + 12
                }
                index = position
                throw failure(.loneSurrogate(escapeText(at: position)))
            case 0xDC00 ... 0xDFFF:
                index = position
                throw failure(.loneSurrogate(escapeText(at: position)))
            default:
                return position + 6
            }
        default:
            index = position
            if position + 1 >= bytes.count { throw failure(.malformedJSON("the line ends inside an escape")) }
            throw failure(.malformedJSON("\(Self.describe(byte(at: position + 1), escaped: true)) is not a JSON escape; write a backslash as \\\\"))
        }
    }

    /// The value of four hex digits at `position`, or nil.
    @inline(__always)
    func hex4(at position: Int) -> UInt32? {
        var value: UInt32 = 0
        for offset in 0 ..< 4 {
            let byte = byte(at: position + offset)
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0") ... UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a") ... UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A") ... UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: return nil
            }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private func escapeText(at position: Int) -> String {
        String(decoding: (0 ..< 6).map { byte(at: position + $0) }, as: UTF8.self)
    }

    /// Validates the multi-byte UTF-8 sequence starting at `position` (Unicode table 3-7: no
    /// overlong forms, no surrogates, nothing above U+10FFFF); returns the position after it.
    @inline(__always)
    private mutating func scanUTF8Sequence(at position: Int) throws(JSONLineFailure) -> Int {
        let lead = byte(at: position)
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2 ... 0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1 ... 0xEC, 0xEE ... 0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1 ... 0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: length = 0
        }
        // byte(at:) returns 0 past the end, which is no continuation byte.
        let second = byte(at: position + 1)
        guard length > 0, second >= low, second <= high,
              length < 3 || byte(at: position + 2) & 0xC0 == 0x80,
              length < 4 || byte(at: position + 3) & 0xC0 == 0x80
        else {
            index = position
            throw failure(.invalidUTF8)
        }
        return position + length
    }

    /// The scanned string `span` (a key or a value) of `bytes`, unescaped: its bytes as they are
    /// when it has no escape, else decoded straight into the new string's storage (escapes only
    /// shrink, so the raw length is room enough). The one place every reader turns a JSON string
    /// into a `String`.
    @inline(__always)
    static func string(_ span: JSONSpan, in bytes: UnsafeBufferPointer<UInt8>) -> String {
        let start = span.start + 1
        let end = span.end - 1
        guard span.hasEscapes else {
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[start ..< end]), as: UTF8.self)
        }
        return String(unsafeUninitializedCapacity: end - start) { output in
            unescape(bytes, from: start, to: end, into: output)
        }
    }

    /// Calls `body` with the unescaped bytes of the scanned string `span`: the input itself when
    /// it has no escape, else a temporary buffer on the stack. For reading a key or a time
    /// without making a `String` of it.
    @inline(__always)
    static func withUnescapedBytes<Result>(
        _ span: JSONSpan, in bytes: UnsafeBufferPointer<UInt8>, _ body: (UnsafeBufferPointer<UInt8>) -> Result
    ) -> Result {
        let start = span.start + 1
        let end = span.end - 1
        guard span.hasEscapes else { return body(UnsafeBufferPointer(rebasing: bytes[start ..< end])) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: end - start) { output in
            let count = unescape(bytes, from: start, to: end, into: output)
            return body(UnsafeBufferPointer(rebasing: output[0 ..< count]))
        }
    }

    /// Writes the string content between `start` and `end` (inside the quotes) to `output`,
    /// decoding its escapes, and returns how many bytes it wrote. The content was validated by
    /// `scanString`; `output` holds at least `end - start` bytes, which is enough because every
    /// escape is longer than what it stands for (`\u00e9` is 6 bytes for 2, a surrogate pair 12
    /// for 4).
    private static func unescape(
        _ bytes: UnsafeBufferPointer<UInt8>, from start: Int, to end: Int, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        let scanner = JSONScanner(bytes)
        var written = 0
        func append(_ byte: UInt8) {
            // In bounds: the output is as long as the escaped input, and never outruns it.
            output[written] = byte
            written += 1
        }
        var position = start
        while position < end {
            // In bounds: position < end <= count.
            let byte = bytes[position]
            guard byte == UInt8(ascii: "\\") else {
                append(byte)
                position += 1
                continue
            }
            let kind = scanner.byte(at: position + 1)
            position += 2
            switch kind {
            case UInt8(ascii: "b"): append(0x08)
            case UInt8(ascii: "f"): append(0x0C)
            case UInt8(ascii: "n"): append(0x0A)
            case UInt8(ascii: "r"): append(0x0D)
            case UInt8(ascii: "t"): append(0x09)
            case UInt8(ascii: "u"):
                var scalar = scanner.hex4(at: position) ?? 0xFFFD
                position += 4
                if (0xD800 ... 0xDBFF).contains(scalar) {
                    // scanString checked that the low half follows.
                    let low = scanner.hex4(at: position + 2) ?? 0xDC00
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    position += 6
                }
                switch scalar {
                case 0 ..< 0x80:
                    append(UInt8(scalar))
                case 0x80 ..< 0x800:
                    append(UInt8(0xC0 | scalar >> 6))
                    append(UInt8(0x80 | scalar & 0x3F))
                case 0x800 ..< 0x10000:
                    append(UInt8(0xE0 | scalar >> 12))
                    append(UInt8(0x80 | scalar >> 6 & 0x3F))
                    append(UInt8(0x80 | scalar & 0x3F))
                default:
                    append(UInt8(0xF0 | scalar >> 18))
                    append(UInt8(0x80 | scalar >> 12 & 0x3F))
                    append(UInt8(0x80 | scalar >> 6 & 0x3F))
                    append(UInt8(0x80 | scalar & 0x3F))
                }
            default: append(kind)  // `"`, `\` and `/` stand for themselves
            }
        }
        return written
    }

    // MARK: Failures

    func failure(_ problem: JSONProblem) -> JSONLineFailure {
        JSONLineFailure(offset: index, field: nil, problem: problem)
    }

    /// "expected X, found Y" at `index`.
    func unexpected(expected: String) -> JSONLineFailure {
        let found = isAtEnd ? "the end of the line" : Self.describe(current, escaped: false)
        return failure(.malformedJSON("expected \(expected), found \(found)"))
    }

    private func tooDeep() -> JSONLineFailure {
        failure(.nestedTooDeep(limit: Self.maximumDepth))
    }

    /// A byte as an error message shows it: printable ASCII in quotes, anything else by its value.
    static func describe(_ byte: UInt8, escaped: Bool) -> String {
        let prefix = escaped ? "\\" : ""
        switch byte {
        case 0x21 ... 0x7E:
            return "'\(prefix)\(String(decoding: [byte], as: UTF8.self))'"
        case 0x20:
            return "a space"
        case 0x80...:
            return "a non-ASCII character"
        default:
            return "the control character \(hex(byte, digits: 2))"
        }
    }

    static func hex(_ value: UInt8, digits: Int) -> String {
        let text = String(value, radix: 16, uppercase: true)
        return "0x" + String(repeating: "0", count: max(0, digits - text.count)) + text
    }
}
