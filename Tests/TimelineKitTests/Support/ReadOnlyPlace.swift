import Foundation

/// A directory, or one file in a directory, that this process cannot write: where the read-only
/// behaviour of the store is tested.
///
/// An ordinary user gets it from permissions (0555, 0444). Root ignores permissions, so as root
/// it is a mount: a tmpfs remounted read-only for a directory, a read-only bind mount for a
/// file; the kernel then answers EROFS to root too. Where mounting is not allowed (a container
/// without CAP_SYS_ADMIN) `isAvailable` is false and these tests do not run; the end-to-end tests,
/// which run the binary as another user, cover the same ground there.
final class ReadOnlyPlace {
    enum Kind { case directory, file(String) }

    /// The directory that holds the files.
    let directory: String
    private let kind: Kind
    private let asRoot = geteuid() == 0
    private var unmount: [String] = []

    /// Creates a writable directory, lets `fill` put files in it, then makes the directory (or
    /// the named file in it) read-only.
    init(_ kind: Kind, fill: (String) throws -> Void) throws {
        self.kind = kind
        directory = NSTemporaryDirectory() + "timelinekit-readonly-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        if asRoot, case .directory = kind {
            try ExternalCommand.run("/bin/mount", ["-t", "tmpfs", "-o", "size=64m,mode=0755", "tmpfs", directory])
            unmount.append(directory)
        }
        try fill(directory)
        switch (kind, asRoot) {
        case (.directory, true):
            try ExternalCommand.run("/bin/mount", ["-o", "remount,ro", directory])
        case (.directory, false):
            try FileManager.default.setAttributes([.posixPermissions: 0o555], ofItemAtPath: directory)
        case let (.file(name), true):
            let file = directory + "/" + name
            try ExternalCommand.run("/bin/mount", ["--bind", file, file])
            unmount.append(file)
            try ExternalCommand.run("/bin/mount", ["-o", "remount,ro,bind", file])
        case let (.file(name), false):
            try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: directory + "/" + name)
        }
    }

    deinit {
        for path in unmount.reversed() { _ = try? ExternalCommand.run("/bin/umount", [path]) }
        try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory)
        try? FileManager.default.removeItem(atPath: directory)
    }

    func file(_ name: String) -> String { directory + "/" + name }

    /// Whether this process can make such places (see above).
    static let isAvailable: Bool = {
        if geteuid() != 0 { return true }
        return (try? ReadOnlyPlace(.directory) { _ in }) != nil
    }()
}
