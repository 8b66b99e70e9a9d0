/// Builds one flat JSON object, for the small reports commands print (`stats --json`).
struct JSONObjectWriter {
    private var text = "{"

    mutating func add(_ key: String, _ value: Int) { member(key, String(value)) }
    mutating func add(_ key: String, _ value: Bool) { member(key, value ? "true" : "false") }
    mutating func add(_ key: String, _ value: String) { member(key, Self.quoted(value)) }

    mutating func finish() -> String { text + "}" }

    private mutating func member(_ key: String, _ json: String) {
        if text.count > 1 { text += "," }
        text += Self.quoted(key) + ":" + json
    }

    static func quoted(_ string: String) -> String {
        var out = "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\u{0}"..."\u{1F}", "\u{7F}"..."\u{9F}":
                let hex = String(scalar.value, radix: 16)
                out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
