import Foundation
import Synchronization
import Testing
@testable import TimelineKit

/// The one wrapper of the file calls: reads that go on after short reads and interrupted calls,
/// typed errors that name the call and the path.
@Suite struct FileDescriptorTests {
    /// A pipe, its ends as `FileDescriptor`s; both closed by `close()`.
    private struct Pipe {
        let read: FileDescriptor
        let write: FileDescriptor

        init() {
            var ends: [Int32] = [-1, -1]
            precondition(pipe(&ends) == 0)
            read = FileDescriptor(rawValue: ends[0])
            write = FileDescriptor(rawValue: ends[1])
        }

        func send(_ text: String) throws {
            try Array(text.utf8).withUnsafeBytes { try write.writeAll($0) }
        }
    }

    @Test func readUpToGathersAPipesShortWritesUntilTheCountOrTheEnd() throws {
        let pipe = Pipe()
        defer { pipe.read.close() }
        let writer = Thread {
            try? pipe.send("abc")
            Thread.sleep(forTimeInterval: 0.05)
            try? pipe.send("defgh")
            pipe.write.close()
        }
        writer.start()
        #expect(try pipe.read.read(upTo: 6) == Array("abcdef".utf8))
        #expect(try pipe.read.read(upTo: 10) == Array("gh".utf8))
        #expect(try pipe.read.read(upTo: 1) == [])
    }

    @Test func readAtMostGivesWhatHasArrivedWithoutWaitingForMore() throws {
        let pipe = Pipe()
        defer {
            pipe.read.close()
            pipe.write.close()
        }
        try pipe.send("abc")
        #expect(try pipe.read.read(atMost: 10) == Array("abc".utf8))
    }

    @Test func openingADirectoryToReadItIsRefusedAsADirectory() throws {
        let directory = TemporaryDirectory()
        #expect {
            try FileDescriptor.openForReading(directory.path)
        } throws: { error in
            let failure = error as? FileSystemError
            return failure?.operation == "read" && failure?.path == directory.path && failure?.code == .isADirectory
        }
        #expect {
            try FileDescriptor.openForReading(directory.file("missing"))
        } throws: { error in
            (error as? FileSystemError)?.isNotFound == true
        }
    }

    @Test func errnoSaysItselfInTheSystemsWords() {
        #expect(Errno.noSuchFileOrDirectory.description == String(cString: strerror(ENOENT)))
        #expect(FileSystemError(operation: "open", path: "/x", code: .permissionDenied).isPermissionDenied)
    }

    /// A signal whose handler does not ask for restarted calls makes a blocked `read` fail with
    /// EINTR (`show -f` installs such handlers); the wrapper reads on.
    @Test func aReadInterruptedByASignalGoesOn() throws {
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = { _ in Self.signalled.store(true, ordering: .relaxed) }
        #else
        action.__sigaction_handler.sa_handler = { _ in FileDescriptorTests.signalled.store(true, ordering: .relaxed) }
        #endif
        action.sa_flags = 0
        var previous = sigaction()
        precondition(sigaction(SIGUSR2, &action, &previous) == 0)
        defer { sigaction(SIGUSR2, &previous, nil) }

        let pipe = Pipe()
        defer {
            pipe.read.close()
            pipe.write.close()
        }
        let reader = Mutex<pthread_t?>(nil)
        let result = Mutex<Result<[UInt8], Errno>?>(nil)
        let thread = Thread {
            // A thread may start with signals blocked; this one must take SIGUSR2.
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGUSR2)
            pthread_sigmask(SIG_UNBLOCK, &signals, nil)
            reader.withLock { $0 = pthread_self() }
            let got = Result { () throws(Errno) in try pipe.read.read(upTo: 3) }
            result.withLock { $0 = got }
        }
        thread.start()
        while reader.withLock({ $0 }) == nil { Thread.sleep(forTimeInterval: 0.01) }
        Thread.sleep(forTimeInterval: 0.1)  // blocked in read by now
        pthread_kill(reader.withLock { $0! }, SIGUSR2)
        Thread.sleep(forTimeInterval: 0.05)
        try pipe.send("xyz")
        let deadline = Date().addingTimeInterval(5)
        while result.withLock({ $0 }) == nil, Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        let handled = Self.signalled.load(ordering: .relaxed)
        #expect(handled)
        #expect(try result.withLock { $0 }?.get() == Array("xyz".utf8))
    }

    private static let signalled = Atomic<Bool>(false)
}
