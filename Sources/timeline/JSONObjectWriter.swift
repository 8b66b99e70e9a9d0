import TimelineKit

/// Builds one JSON object, for the small reports commands print (`stats --json`, `doctor --json`).
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

    mutating func add(_ key: String, _ value: Int?) {
        if let value { add(key, value) } else { addNull(key) }
    }

    mutating func add(_ key: String, _ value: String?) {
        if let value { add(key, value) } else { addNull(key) }
    }

    mutating func addNull(_ key: String) {
        member(key)
        bytes += Array("null".utf8)
    }

    mutating func add(_ key: String, _ values: [String]) {
        member(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONLineEncoder.appendString(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    mutating func add(_ key: String, _ values: [Int]) {
        member(key)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            JSONLineEncoder.appendInteger(value, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// An object, built by its own writer.
    mutating func add(_ key: String, object: JSONObjectWriter) {
        member(key)
        bytes += Array(object.finish().utf8)
    }

    /// An array of objects, each built by its own writer.
    mutating func add(_ key: String, objects: [JSONObjectWriter]) {
        member(key)
        bytes.append(UInt8(ascii: "["))
        for (index, object) in objects.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(object.finish().utf8)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    func finish() -> String { String(decoding: bytes + [UInt8(ascii: "}")], as: UTF8.self) }

    private mutating func member(_ key: String) {
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JSONLineEncoder.appendString(key, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}
