import Foundation

/// `timeline` run where it cannot write: the scenario's directory, or only its database file,
/// read-only for the process.
///
/// An ordinary user gets that from permissions (0555, 0444). Root ignores permissions, so as root
/// the binary runs as `nobody` (`setpriv`, util-linux), the scenario's files handed to nobody and
/// the directory (or the database file) left root's: read, but not written, as anyone's files in
/// a directory they do not own (and, where nobody cannot reach the build directory, as under
/// /root, a copy of the binary in the temporary directory). `isAvailable` is false where neither
/// works.
final class ReadOnlyTimeline {
    /// The runner to use: it cannot write what was made read-only.
    let timeline: TimelineProcess
    private let restore: () -> Void

    /// Makes the scenario's directory read-only, or only the file `only` when given (the
    /// directory stays writable), for the returned runner.
    init(_ scenario: Scenario, only: String? = nil) throws {
        var timeline = scenario.timeline
        let directory = scenario.directory
        if geteuid() != 0 {
            let target = only ?? directory
            try FileManager.default.setAttributes([.posixPermissions: only == nil ? 0o555 : 0o444], ofItemAtPath: target)
            restore = { try? FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: directory) }
        } else {
            let nobody = ["65534", "65534"]
            for name in try FileManager.default.contentsOfDirectory(atPath: directory) where directory + "/" + name != only {
                try Self.run("/bin/chown", ["\(nobody[0]):\(nobody[1])", directory + "/" + name])
            }
            if let only {
                try Self.run("/bin/chown", ["\(nobody[0]):\(nobody[1])", directory])
                try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: only)
            }
            timeline.launcher = ["/usr/bin/setpriv", "--reuid=\(nobody[0])", "--regid=\(nobody[1])", "--clear-groups", try Self.reachableExecutable()]
            restore = {}
        }
        self.timeline = timeline
    }

    deinit { restore() }

    /// Whether `timeline` can be run where it cannot write (see above).
    static let isAvailable: Bool = {
        if geteuid() != 0 { return true }
        return (try? run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups", "/bin/true"])) != nil
    }()

    /// A copy of the repository file `relative` that every user can read: a test that changes
    /// user must not depend on where the checkout lives (a clone under a private home, or in
    /// `mktemp -d`, is out of nobody's reach).
    static func readableCopy(of relative: String) -> String {
        let directory = NSTemporaryDirectory() + "timeline-cli-readable-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                 attributes: [.posixPermissions: 0o755])
        let copy = directory + "/" + (relative as NSString).lastPathComponent
        try? FileManager.default.copyItem(atPath: Scenario.repositoryPath(relative), toPath: copy)
        try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: copy)
        return copy
    }

    /// The binary, or when nobody cannot run it where it was built, a copy (made once) in a
    /// directory every user can enter.
    private static func reachableExecutable() throws -> String {
        try executableForNobody.get()
    }

    private static let executableForNobody = Result { () throws -> String in
        let reachable = try? run("/usr/bin/setpriv", ["--reuid=65534", "--regid=65534", "--clear-groups",
                                                       "/usr/bin/test", "-x", TimelineProcess.executable])
        if reachable != nil { return TimelineProcess.executable }
        let directory = NSTemporaryDirectory() + "timeline-cli-binary-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o755])
        let copy = directory + "/timeline"
        try FileManager.default.copyItem(atPath: TimelineProcess.executable, toPath: copy)
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: copy)
        return copy
    }

    @discardableResult
    private static func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ShellFailure(description: "\(executable) \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return process.terminationStatus
    }
}
