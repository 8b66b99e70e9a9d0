#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open file descriptor and the system calls TimelineKit makes on it, one wrapper per call,
/// after swift-system's `FileDescriptor`: each goes on after `EINTR` (a signal arriving during
/// the call, as `show -f`'s resize and wake-up signals do) and fails with a typed `Errno`.
/// A value names the descriptor; it does not own it: whoever opened it closes it.
package struct FileDescriptor: Sendable, Hashable {
    package let rawValue: Int32

    package init(rawValue: Int32) {
        self.rawValue = rawValue
    }

    package static let standardInput = FileDescriptor(rawValue: STDIN_FILENO)
    package static let standardOutput = FileDescriptor(rawValue: STDOUT_FILENO)

    /// `open(2)`. `permissions` applies when `flags` holds `O_CREAT` (filtered by the umask).
    package static func open(_ path: String, _ flags: Int32, permissions: mode_t = 0) throws(Errno) -> FileDescriptor {
        FileDescriptor(rawValue: try retryingInterrupts { systemOpen(path, flags, permissions) })
    }

    /// Opens `path` to be read through, from a file, a pipe or a device, and refuses a
    /// directory: `open` accepts one for reading, and only the first `read` would fail.
    package static func openForReading(_ path: String) throws(FileSystemError) -> FileDescriptor {
        let descriptor: FileDescriptor
        do {
            descriptor = try open(path, O_RDONLY | O_CLOEXEC)
        } catch {
            throw FileSystemError(operation: "open", path: path, code: error)
        }
        if (try? descriptor.status().kind) == .directory {
            descriptor.close()
            throw FileSystemError(operation: "read", path: path, code: .isADirectory)
        }
        return descriptor
    }

    /// `close(2)`. Its failure is not reported: after a close the descriptor is gone whatever
    /// it says (retrying could close another thread's new descriptor), and what was written
    /// through it was checked by `fsync` where it matters.
    package func close() {
        _ = systemClose(rawValue)
    }

    /// What `fstat(2)` says of the open file.
    package func status() throws(Errno) -> FileStatus {
        var info = stat()
        guard fstat(rawValue, &info) == 0 else { throw Errno.current }
        return FileStatus(kind: FileSystem.Kind(mode: info.st_mode), size: Int(info.st_size),
                          permissions: info.st_mode & 0o7777, ownerID: info.st_uid)
    }

    /// The current offset, or `nil` where there is none (a pipe or a terminal).
    package func offset() -> Int? {
        let offset = lseek(rawValue, 0, SEEK_CUR)
        return offset >= 0 ? Int(offset) : nil
    }

    /// `read(2)`: at most `buffer.count` bytes; 0 at the end of the input.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingInterrupts { systemRead(rawValue, base, buffer.count) }
    }

    /// `pread(2)`: at most `buffer.count` bytes at `offset`, leaving the file's offset as it is.
    package func read(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingInterrupts { pread(rawValue, base, buffer.count, off_t(offset)) }
    }

    /// What one `read(2)` gives: at most `count` bytes, as many as have arrived (a pipe's writer
    /// may still be writing); empty at the end of the input.
    package func read(atMost count: Int) throws(Errno) -> [UInt8] {
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            do throws(Errno) {
                initialized = try read(into: UnsafeMutableRawBufferPointer(buffer))
            } catch {
                initialized = 0
                failure = error
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Up to `count` bytes, fewer only at the end of the input: goes on after short reads (a
    /// pipe delivers what its writer wrote so far). From `offset` without moving the file's
    /// offset when one is given.
    package func read(upTo count: Int, atOffset offset: Int? = nil) throws(Errno) -> [UInt8] {
        var failure: Errno?
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                // In bounds: the rest of a buffer of capacity `count`, after what was read.
                let rest = UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[initialized...])
                do throws(Errno) {
                    let got = if let offset { try read(into: rest, atOffset: offset + initialized) } else { try read(into: rest) }
                    if got == 0 { break }
                    initialized += got
                } catch {
                    failure = error
                    break
                }
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// `write(2)` until all of `buffer` is written, going on after short writes.
    package func writeAll(_ buffer: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < buffer.count {
            // In bounds: the `buffer.count - offset` bytes that remain after `offset`.
            let written = try retryingInterrupts { systemWrite(rawValue, buffer.baseAddress! + offset, buffer.count - offset) }
            // A write that wrote nothing and said nothing would loop forever.
            guard written > 0 else { throw Errno.ioError }
            offset += written
        }
    }

    /// `fsync(2)`: what was written is on the disk.
    package func synchronize() throws(Errno) {
        _ = try retryingInterrupts { fsync(rawValue) }
    }

    /// `fchmod(2)`.
    package func setPermissions(_ permissions: mode_t) throws(Errno) {
        _ = try retryingInterrupts { fchmod(rawValue, permissions) }
    }
}

/// What `FileDescriptor.status()` tells of an open file.
package struct FileStatus: Sendable, Hashable {
    package var kind: FileSystem.Kind
    /// In bytes (of a regular file).
    package var size: Int
    /// The permission bits.
    package var permissions: mode_t
    /// The owner's user ID.
    package var ownerID: uid_t
}

/// Runs a system call again while it fails with `EINTR`; any other failure is thrown.
package func retryingInterrupts<Result: BinaryInteger>(_ call: () -> Result) throws(Errno) -> Result {
    while true {
        let result = call()
        if result >= 0 { return result }
        let error = Errno.current
        if error != .interrupted { throw error }
    }
}

// The C functions under names that `FileDescriptor`'s own methods do not hide.
private func systemOpen(_ path: String, _ flags: Int32, _ permissions: mode_t) -> Int32 { open(path, flags, permissions) }
private func systemClose(_ descriptor: Int32) -> Int32 { close(descriptor) }
private func systemRead(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(descriptor, buffer, count) }
private func systemWrite(_ descriptor: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(descriptor, buffer, count) }
