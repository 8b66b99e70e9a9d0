#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a small text file, or standard input for `-`, as lines (for lists of IDs).
enum LineReader {
    struct Failure: Error, CustomStringConvertible {
        let path: String
        let code: Int32
        var description: String { "cannot read \(path): \(String(cString: strerror(code)))" }
    }

    static func lines(of path: String) throws(Failure) -> [String] {
        let fd = path == "-" ? STDIN_FILENO : open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw Failure(path: path, code: errno) }
        defer { if fd != STDIN_FILENO { close(fd) } }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // In bounds: reads at most chunk.count bytes into chunk's own storage.
            let got = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if got > 0 {
                bytes += chunk[..<got]
            } else if got == 0 {
                break
            } else if errno != EINTR {
                throw Failure(path: path, code: errno)
            }
        }
        return String(decoding: bytes, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasSuffix("\r") ? String($0.dropLast()) : String($0) }
            .map { $0.trimmingSpaces() }
    }
}

extension String {
    func trimmingSpaces() -> String {
        String(drop(while: { $0 == " " || $0 == "\t" }).reversed().drop(while: { $0 == " " || $0 == "\t" }).reversed())
    }
}
