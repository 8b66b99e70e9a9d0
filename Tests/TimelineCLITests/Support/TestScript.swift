import Foundation

/// Writes the small shell scripts tests hand to `timeline` as a browser, an editor or a wrapper.
///
/// Written by a `/bin/sh` child, never through a descriptor of this process: the test process
/// starts children from many threads at once, and a child forked while this process held the
/// new file open for writing keeps that descriptor for its whole life (a loopback server lives
/// as long as its test), so running the script then fails with ETXTBSY, "text file busy" (the
/// fork/exec race of golang/go#22315). `timeline open` took that for a browser that cannot run
/// and printed the address instead: OpenCommandTests failed that way under load.
enum TestScript {
    /// Writes `text` to `path` with mode 0755, replacing what was there.
    static func write(_ text: String, to path: String) throws {
        let shell = Process()
        shell.executableURL = URL(fileURLWithPath: "/bin/sh")
        shell.arguments = ["-c", #"cat > "$1.tmp" && chmod 755 "$1.tmp" && mv -f "$1.tmp" "$1""#, "sh", path]
        let input = Pipe()
        shell.standardInput = input
        try shell.run()
        PipeInput.write(Data(text.utf8), to: input.fileHandleForWriting)
        try input.fileHandleForWriting.close()
        shell.waitUntilExit()
        guard shell.terminationStatus == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path])
        }
    }
}
