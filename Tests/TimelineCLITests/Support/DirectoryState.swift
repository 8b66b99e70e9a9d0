import Foundation

/// Every file in a directory with its bytes and modification time. Equal before and after a
/// command means the command changed no file there (not even its time) and created none.
struct DirectoryState: Equatable {
    struct File: Equatable {
        let bytes: Data
        let modified: Date
    }

    let files: [String: File]

    init(_ directory: String) throws {
        var files: [String: File] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: directory) {
            let path = directory + "/" + name
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            let bytes = attributes[.type] as? FileAttributeType == .typeRegular ? try Data(contentsOf: URL(fileURLWithPath: path)) : Data()
            files[name] = File(bytes: bytes, modified: attributes[.modificationDate] as? Date ?? .distantPast)
        }
        self.files = files
    }
}
