/// A value copied from input (a file, a server's answer, an argument) into an error message:
/// quoted and escaped as a JSON string, shortened, its invisible format characters escaped too.
/// Every error of the library and every message of the command line quotes values this way
/// (issue 33: a reference of 131,000 characters was printed back whole), so a hostile value can
/// put neither a terminal escape sequence nor a right-to-left override into a message, nor run
/// it past a line, and the person sees exactly what the input held.
public enum QuotedValue {
    /// `value` as a JSON string literal, shortened, so that whatever the file held (escape
    /// sequences, newlines, megabytes) prints as one harmless line.
    public static func quoted(_ value: String) -> String {
        let limit = 80
        var shown = Substring(value)
        var suffix = ""
        if value.unicodeScalars.count > limit {
            shown = Substring(value.unicodeScalars.prefix(limit))
            suffix = "…"
        }
        return "\"" + escaped(String(shown)) + "\"" + suffix
    }

    /// `value` escaped as inside a JSON string literal (controls, C1, U+2028/U+2029), and its
    /// invisible format characters too (`TerminalText.isFormat`: U+202E shows as `\u202e`), so an
    /// error message shows what the input holds, and nothing in it can reorder the message.
    public static func escaped(_ value: String) -> String {
        let hexDigits = Array("0123456789abcdef".utf8)
        var bytes: [UInt8] = []
        JSONLineEncoder.appendString(value, to: &bytes)
        let json = String(decoding: bytes.dropFirst().dropLast(), as: UTF8.self)
        guard json.unicodeScalars.contains(where: { TerminalText.isFormat($0.value) }) else { return json }
        var result = ""
        for scalar in json.unicodeScalars {
            guard TerminalText.isFormat(scalar.value) else {
                result.unicodeScalars.append(scalar)
                continue
            }
            // As JSON writes it: UTF-16 code units, a surrogate pair beyond the BMP.
            for unit in String(scalar).utf16 {
                result += "\\u"
                for shift: UInt16 in [12, 8, 4, 0] {
                    result.unicodeScalars.append(Unicode.Scalar(hexDigits[Int(unit >> shift & 0xF)]))
                }
            }
        }
        return result
    }
}
