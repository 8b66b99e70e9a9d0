import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is released.
final class TemporaryDirectory {
    let path: String

    init() {
        var template = Array((NSTemporaryDirectory() + "/timelinekit-test-XXXXXX").utf8CString)
        let created = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        precondition(created != nil, "mkdtemp failed")
        path = String(cString: template.map { UInt8(bitPattern: $0) })
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func file(_ name: String) -> String { path + "/" + name }
}
