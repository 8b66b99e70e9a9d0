#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Hands the JSON Lines importer a descriptor that yields the bytes already read from a pipe
/// (to detect the format) followed by the rest of the pipe, copied by a thread as it arrives:
/// a pipe cannot be rewound, and the importer must still stream, not buffer, a large file.
///
/// The copy goes through a socket pair rather than a pipe so that, when the import stops early
/// at a bad line and closes its end, the thread's next write fails with `EPIPE` instead of
/// raising `SIGPIPE` and killing the process before it reports the error.
final class PipeRelay: @unchecked Sendable {
    // @unchecked Sendable: the thread only reads `prefix`, `source` and `writeEnd`, which are
    // immutable, and the other side only touches `readEnd` and `thread`.

    /// What the importer reads.
    let readEnd: Int32
    private let writeEnd: Int32
    private let source: Int32
    private let prefix: [UInt8]
    private var thread: pthread_t?
    private let failure = Mutex<Int32?>(nil)

    /// The `errno` of a failed read from the source, once the copy has stopped because of it.
    var readError: Int32? { failure.withLock { $0 } }

    init(prefix: [UInt8], source: Int32, sourceName: String) throws(ImportError) {
        var ends: [Int32] = [-1, -1]
        #if canImport(Darwin)
        let type = SOCK_STREAM
        #else
        let type = Int32(SOCK_STREAM.rawValue)
        #endif
        guard socketpair(AF_UNIX, type, 0, &ends) == 0 else {
            throw ImportError(source: sourceName, problem: .cannotRead(FileSystemError(operation: "socketpair", path: sourceName, code: errno)))
        }
        readEnd = ends[0]
        writeEnd = ends[1]
        #if canImport(Darwin)
        var on: Int32 = 1
        setsockopt(writeEnd, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
        #endif
        self.source = source
        self.prefix = prefix
    }

    /// Starts copying.
    func start() {
        var handle = pthread_t()
        let context = Unmanaged.passRetained(self).toOpaque()
        let started = pthread_create(&handle, nil, { context in
            #if canImport(Darwin)
            let relay = Unmanaged<PipeRelay>.fromOpaque(context).takeRetainedValue()
            #else
            let relay = Unmanaged<PipeRelay>.fromOpaque(context!).takeRetainedValue()
            #endif
            relay.copy()
            return nil
        }, context)
        if started == 0 {
            thread = handle
        } else {
            // No thread: copy what can be copied here. Only the prefix is certain to fit the
            // socket's buffer, which is all a failed thread start can offer.
            Unmanaged<PipeRelay>.fromOpaque(context).release()
            _ = prefix.withUnsafeBytes { send(writeEnd, $0.baseAddress, $0.count, Self.noSignal) }
            close(writeEnd)
        }
    }

    /// After the importer read to the end: waits for the thread and closes the read end.
    func finish() {
        if let thread { pthread_join(thread, nil) }
        close(readEnd)
    }

    /// After the importer stopped early: closes the read end, so the thread's next write fails
    /// and it ends; it is not waited for, as it may be waiting for the pipe's writer.
    func abandon() {
        close(readEnd)
        if let thread { pthread_detach(thread) }
    }

    #if canImport(Darwin)
    private static let noSignal: Int32 = 0
    #else
    private static let noSignal = Int32(MSG_NOSIGNAL)
    #endif

    private func copy() {
        defer { close(writeEnd) }
        guard write(prefix[...]) else { return }
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            // In bounds: reads at most chunk.count bytes into chunk's own storage.
            let got = chunk.withUnsafeMutableBytes { read(source, $0.baseAddress, $0.count) }
            if got > 0 {
                guard write(chunk[..<got]) else { return }
            } else if got == 0 {
                return
            } else if errno != EINTR {
                // The importer would take the end of its input for the end of the file and
                // commit half of it: a line that cannot parse makes it fail instead, and the
                // caller reports the read error in place of that line's.
                let code = errno
                failure.withLock { $0 = code }
                _ = write(Array("\n\u{0}\n".utf8)[...])
                return
            }
        }
    }

    /// Writes all of `bytes`; false when the importer's end is closed.
    private func write(_ bytes: ArraySlice<UInt8>) -> Bool {
        bytes.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count {
                // In bounds: sends buffer.count - offset bytes from within buffer.
                let sent = send(writeEnd, buffer.baseAddress! + offset, buffer.count - offset, Self.noSignal)
                if sent > 0 {
                    offset += sent
                } else if sent < 0 && errno == EINTR {
                    continue
                } else {
                    return false
                }
            }
            return true
        }
    }
}
