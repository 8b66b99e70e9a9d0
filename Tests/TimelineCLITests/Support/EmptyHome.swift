#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A brand-new home directory, as a person has on the first day: nothing under it, no
/// `TIMELINE_DB`, no XDG variables, so every path `timeline` uses is its default one. Tests
/// that create the database's directory first can pass while a new user fails; these cannot.
final class EmptyHome {
    let path: String
    var timeline: TimelineProcess

    init() {
        path = NSTemporaryDirectory() + "timeline-home-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: false,
                                                 attributes: [.posixPermissions: 0o700])
        timeline = TimelineProcess(databasePath: "")
        timeline.environment = ["HOME": path, "PATH": "/usr/bin:/bin", "TERM": "xterm-256color"]
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    /// Where the database is by default: `$HOME/.local/share/timeline/timeline.sqlite`.
    var databasePath: String { path + "/.local/share/timeline/timeline.sqlite" }

    /// Whether anything exists at `relative` under the home directory.
    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path + "/" + relative) }

    /// POSIX permissions of `relative` under the home directory, or -1.
    func permissions(_ relative: String) -> Int {
        (try? FileManager.default.attributesOfItem(atPath: path + "/" + relative)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }
}

/// The line `timeline login` ends with: the next step (issue 23, item 5).
enum LoginNextStep {
    static let text = "Next: `timeline sync` fetches your timeline (the shell hook of `timeline init` also syncs in the background at every new terminal).\n"
}

extension MastodonTestServer {
    /// A loopback port nothing listens on: bound to learn a free number, then closed, so a
    /// connection to it is refused at once.
    static func closedLoopbackPort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        precondition(socket >= 0, "socket: \(errno)")
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) == 0 && getsockname(socket, $0, &length) == 0 }
        }
        precondition(bound, "bind: \(errno)")
        return Int(UInt16(bigEndian: address.sin_port))
    }
}
