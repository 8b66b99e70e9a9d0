import TimelineKit

/// Builds one flat JSON object, for the small reports commands print (`stats --json`).
struct JSONObjectWriter {
    private var bytes: [UInt8] = [UInt8(ascii: "{")]

    mutating func add(_ key: String, _ value: Int) {
        member(key)
        JSONLineEncoder.appendInteger(value, to: &bytes)
    }

    mutating func add(_ key: String, _ value: Bool) {
        member(key)
        bytes += Array((value ? "true" : "false").utf8)
    }

    mutating func add(_ key: String, _ value: String) {
        member(key)
        JSONLineEncoder.appendString(value, to: &bytes)
    }

    func finish() -> String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }

    private mutating func member(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JSONLineEncoder.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
