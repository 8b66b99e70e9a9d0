import Foundation
import Synchronization
import Testing
import TimelineKit

/// `timeline browse`'s `p` on a terminal the test plays itself: a pseudo-terminal whose primary
/// side answers the picture query as kitty, a sixel terminal or tmux without passthrough would,
/// and reads back what browse draws, with the pictures served by a loopback server.
@Suite(.serialized) struct BrowsePictureCommandTests {
    /// The terminal the test plays: browse runs on its secondary side as the session's
    /// controlling terminal (`setsid --ctty`), as in a real terminal window.
    final class FakeTerminal: @unchecked Sendable {
        // @unchecked Sendable: `output` is a Mutex; the rest are constants.
        let terminal: PseudoTerminal
        let process: Process
        private let output = Mutex<[UInt8]>([])
            static let columns = 80
        static let rows = 24

        init(environment: [String: String]) throws {
            terminal = try PseudoTerminal(columns: Self.columns, rows: Self.rows)
            process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/setsid")
            process.arguments = ["--ctty", "--wait", TimelineProcess.executable, "browse"]
            process.environment = environment
            process.standardInput = terminal.secondary
            process.standardOutput = terminal.secondary
            process.standardError = FileHandle.nullDevice
            try process.run()
            terminal.closeSecondary()
            Thread.detachNewThread { [self] in
                var buffer = [UInt8](repeating: 0, count: 65536)
                while true {
                    let got = buffer.withUnsafeMutableBytes { read(terminal.primary, $0.baseAddress, $0.count) }
                    if got > 0 {
                        output.withLock { $0 += buffer[..<got] }
                    } else if got < 0 && errno == EINTR {
                        continue
                    } else {
                        break
                    }
                }
            }
        }

        var bytes: [UInt8] { output.withLock { $0 } }
        var text: String { String(decoding: bytes, as: UTF8.self) }

        /// Waits (at most `timeout` seconds: a bound for a broken run, not a measure) until the
        /// output since `from` holds `expected`; the output's length when it did.
        /// Sleeps on the task, not a thread: no thread of the pool is held meanwhile.
        @discardableResult
        func wait(for expected: String, from: Int = 0, timeout: Double = 60,
                  sourceLocation: SourceLocation = #_sourceLocation) async -> Int {
            let needle = Array(expected.utf8)
            let end = Date().addingTimeInterval(timeout)
            var ended = false
            while Date() < end {
                let running = process.isRunning
                let now = bytes
                if now.count > from, Array(now[from...]).firstRange(of: needle) != nil { return now.count }
                // Once browse has ended, nothing more comes.
                if ended { break }
                ended = !running
                try? await Task.sleep(for: .milliseconds(50))
            }
            Issue.record("never came: \(expected.debugDescription) in \(String(decoding: bytes.suffix(2000), as: UTF8.self).debugDescription)",
                         sourceLocation: sourceLocation)
            return bytes.count
        }

        func type(_ text: String) { terminal.type(text) }

        /// Changes the window's size: the kernel sends SIGWINCH to browse.
        func resize(columns: Int, rows: Int) {
            var size = winsize(ws_row: UInt16(rows), ws_col: UInt16(columns), ws_xpixel: 0, ws_ypixel: 0)
            _ = ioctl(terminal.primary, UInt(TIOCSWINSZ), &size)
        }

        /// Quits (a first `q` closes the picture screen when it is open) and waits for the process.
        func quit() async {
            type("q")
            try? await Task.sleep(for: .milliseconds(200))
            type("q")
            let end = Date().addingTimeInterval(60)
            while process.isRunning, Date() < end { try? await Task.sleep(for: .milliseconds(50)) }
            if process.isRunning { process.terminate() }
        }
    }

    /// A timeline of one post with `pictures` (path on the server, alt text), its snapshot
    /// written; the environment that browses it with the cache in the scenario's directory.
    private func setUp(_ server: HostileServer, pictures: [(path: String, alt: String?)]) async throws -> (Scenario, [String: String]) {
        let scenario = Scenario()
        let attachments = pictures.map { picture in
            var fields = #""kind":"image","url":"\#(server.baseURL)\#(picture.path)""#
            if let alt = picture.alt { fields += #","alt_text":"\#(alt)""# }
            return "{" + fields + "}"
        }.joined(separator: ",")
        let lines = [
            #"{"type":"user","id":"u1","handle":"heron","name":"Heron Watcher"}"#,
            #"{"type":"message","id":"m1","author":"u1","text":"Look at this bird","created_at":"2026-11-16T12:02:00Z","attachments":[\#(attachments)]}"#,
        ]
        let file = scenario.directory + "/timeline.jsonl"
        try (lines.joined(separator: "\n") + "\n").write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try await scenario.timeline.runOffThePool(["import", file]).status == 0)
        #expect(try await scenario.timeline.runOffThePool(["show", "-n", "1"]).status == 0)  // the snapshot browse opens from
        let environment = ["TIMELINE_DB": scenario.databasePath, "HOME": "/nonexistent", "PATH": "/usr/bin:/bin", "TERM": "xterm-256color",
                           "XDG_CACHE_HOME": scenario.directory + "/cache", "SWIFT_BACKTRACE": "enable=no"]
        return (scenario, environment)
    }

    private func serve(_ server: HostileServer, _ path: String, _ bytes: [UInt8]) throws {
        try server.route(path, ["status": 200, "headers": ["Content-Type": "image/png"], "body_base64": Data(bytes).base64EncodedString()])
    }

    /// A valid 2 × 2 PNG (zlib stored block), CRCs computed.
    static func png(width: UInt32 = 2, height: UInt32 = 2) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
        }
        let header = bigEndian(width) + bigEndian(height) + [8, 2, 0, 0, 0]
        let row: [UInt8] = [0] + [UInt8](repeating: 0x80, count: 3 * Int(min(width, 2)))
        let raw = Array(repeating: row, count: Int(min(height, 2))).flatMap { $0 }
        let stored = [0x78, 0x01, 0x01, UInt8(raw.count & 0xFF), UInt8(raw.count >> 8), ~UInt8(raw.count & 0xFF), ~UInt8(raw.count >> 8)]
            + raw + bigEndian(adler32(raw))
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header) + chunk("IDAT", stored) + chunk("IEND", [])
    }

    /// An 8 × 8 grey baseline JPEG: every coefficient 0, one-code Huffman tables.
    static let jpeg: [UInt8] = {
        let quantisation: [UInt8] = [0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64)
        let frame: [UInt8] = [0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x08, 0x00, 0x08, 0x01, 0x01, 0x11, 0x00]
        let dc: [UInt8] = [0xFF, 0xC4, 0x00, 0x14, 0x00, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        let ac: [UInt8] = [0xFF, 0xC4, 0x00, 0x14, 0x10, 1] + [UInt8](repeating: 0, count: 15) + [0x00]
        let scan: [UInt8] = [0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00]
        return [0xFF, 0xD8] + quantisation + frame + dc + ac + scan + [0x3F, 0xFF, 0xD9]
    }()

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? 0xEDB8_8320 ^ (crc >> 1) : crc >> 1 }
        }
        return ~crc
    }

    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65521
            b = (b + a) % 65521
        }
        return b << 16 | a
    }

    static let kittyAnswers = "\u{1b}_Gi=31;OK\u{1b}\\\u{1b}P>|kitty(0.35.2)\u{1b}\\\u{1b}[?62;22c"
    static let sixelAnswers = "\u{1b}P>|XTerm(390)\u{1b}\\\u{1b}[?63;1;2;4;6;9;15;22c"
    static let onlyDA1 = "\u{1b}[?62;22c"

    /// Presses `p`, answers the query with `answers`; the output's length before.
    private func pressP(_ terminal: FakeTerminal, answering answers: String?) async -> Int {
        let before = terminal.bytes.count
        terminal.type("p")
        if let answers {
            await terminal.wait(for: TerminalGraphicsAnswers.query, from: before)
            terminal.type(answers)
        }
        return before
    }

    /// A fake `chafa` first on `PATH`: it writes a mark when run.
    private func fakeChafa(in scenario: Scenario) throws -> (path: String, mark: String) {
        let directory = scenario.directory + "/bin"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let mark = scenario.directory + "/chafa-ran"
        try TestScript.write("#!/bin/sh\necho ran > '\(mark)'\n", to: directory + "/chafa")
        return (directory + ":/usr/bin:/bin", mark)
    }

    @Test func aKittyTerminalGetsThePNGAsItIsWithNoTokenAndASecondPMakesNoRequest() async throws {
        let server = try HostileServer()
        let png = Self.png()
        try serve(server, "/media/heron.png", png)
        let (scenario, environment) = try await setUp(server, pictures: [("/media/heron.png", "A grey heron on one leg")])
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = await pressP(terminal, answering: Self.kittyAnswers)
        let expected = try kittyDrawing(png, url: server.baseURL + "/media/heron.png", alt: "A grey heron on one leg",
                                        columns: FakeTerminal.columns, rows: FakeTerminal.rows)
        await terminal.wait(for: expected, from: before)
        #expect(terminal.text.contains("A grey heron on one leg"))
        // Any key closes the screen and deletes kitty's pictures.
        var mark = terminal.bytes.count
        terminal.type("x")
        await terminal.wait(for: "\u{1b}_Ga=d,d=A,q=2\u{1b}\\", from: mark)
        // Again: the cache answers, the terminal is not asked again.
        mark = terminal.bytes.count
        terminal.type("p")
        await terminal.wait(for: expected, from: mark)
        #expect(!String(decoding: terminal.bytes[mark...], as: UTF8.self).contains("\u{1b}[>q"))
        await terminal.quit()
        withExtendedLifetime(scenario) {}
        let requests = try server.requests().filter { ($0["path"] as? String) == "/media/heron.png" }
        #expect(requests.count == 1)
        #expect(requests.allSatisfy { ($0["authorization"] as? String ?? "").isEmpty }, "\(requests)")
    }

    /// The kitty sequence that draws `png` as the only picture in a window of `columns` × `rows`.
    private func kittyDrawing(_ png: [UInt8], url: String, alt: String, columns: Int, rows: Int) throws -> String {
        let pictures = BrowsePictures(items: [.init(url: url, altText: alt)], drawsPictures: true)
        let rect = try #require(BrowsePictureLayout(pictures, columns: columns, rows: rows - 1).tiles[0].picture)
        return "\u{1b}[\(rect.row + 1);\(rect.column + 1)H"
            + String(decoding: TerminalPictureEncoding.kitty(png: png, columns: rect.columns, rows: rect.rows), as: UTF8.self)
    }

    @Test func aResizedWindowGetsThePictureAgainInItsNewPlaceFromTheCache() async throws {
        let server = try HostileServer()
        let png = Self.png()
        try serve(server, "/media/heron.png", png)
        let (scenario, environment) = try await setUp(server, pictures: [("/media/heron.png", "A heron")])
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = await pressP(terminal, answering: Self.kittyAnswers)
        let url = server.baseURL + "/media/heron.png"
        await terminal.wait(for: try kittyDrawing(png, url: url, alt: "A heron", columns: 80, rows: 24), from: before)
        let mark = terminal.bytes.count
        terminal.resize(columns: 100, rows: 30)
        await terminal.wait(for: "\u{1b}_Ga=d,d=A,q=2\u{1b}\\", from: mark)
        await terminal.wait(for: try kittyDrawing(png, url: url, alt: "A heron", columns: 100, rows: 30), from: mark)
        await terminal.quit()
        withExtendedLifetime(scenario) {}
        #expect(try server.requests().filter { ($0["path"] as? String) == "/media/heron.png" }.count == 1)
    }

    @Test func aTerminalAnsweringOnlyDA1GetsTheAltTextsAndNoRequest() async throws {
        let server = try HostileServer()
        try serve(server, "/media/a.png", Self.png())
        let (scenario, environment) = try await setUp(server, pictures: [("/media/a.png", "A heron"), ("/media/b.png", nil)])
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = await pressP(terminal, answering: Self.onlyDA1)
        await terminal.wait(for: "draws no pictures", from: before)
        let shown = String(decoding: terminal.bytes[before...], as: UTF8.self)
        #expect(shown.contains("1  A heron") && shown.contains("2  no description"))
        #expect(!shown.contains("\u{1b}_Ga=T") && !shown.contains("\u{1b}]1337"))
        await terminal.quit()
        withExtendedLifetime(scenario) {}
        #expect(try server.requests().filter { ($0["path"] as? String)?.hasPrefix("/media/") == true }.isEmpty)
    }

    @Test func aKeyTypedWhileTheTerminalIsAskedIsNotLost() async throws {
        let server = try HostileServer()
        let (scenario, environment) = try await setUp(server, pictures: [("/media/a.png", "A heron")])
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = terminal.bytes.count
        terminal.type("p")
        await terminal.wait(for: TerminalGraphicsAnswers.query, from: before)
        // `x` typed before the answers: it reaches the view after them and closes the pictures.
        terminal.type("x" + Self.onlyDA1)
        await terminal.wait(for: "? keys · q quit", from: before)
        await terminal.quit()
        withExtendedLifetime(scenario) {}
    }

    @Test func a30000By30000PNGIsRefusedWithoutRunningChafa() async throws {
        let server = try HostileServer()
        try serve(server, "/bomb.png", Self.png(width: 30_000, height: 30_000))
        let (scenario, base) = try await setUp(server, pictures: [("/bomb.png", "not a bomb, honest")])
        let chafa = try fakeChafa(in: scenario)
        var environment = base
        environment["PATH"] = chafa.path
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = await pressP(terminal, answering: Self.sixelAnswers)
        await terminal.wait(for: "30000 × 30000 pixels", from: before)
        #expect(terminal.text.contains("not a bomb, honest"))
        await terminal.quit()
        withExtendedLifetime(scenario) {}
        #expect(!FileManager.default.fileExists(atPath: chafa.mark))
    }

    /// `bytes` served as the post's one picture to a sixel terminal whose `chafa` only leaves a
    /// mark: what the picture screen said, and whether chafa ran.
    private func refusal(of bytes: [UInt8]) async throws -> (shown: String, chafaRan: Bool) {
        let server = try HostileServer()
        try serve(server, "/picture", bytes)
        let (scenario, base) = try await setUp(server, pictures: [("/picture", "alt")])
        let chafa = try fakeChafa(in: scenario)
        var environment = base
        environment["PATH"] = chafa.path
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = await pressP(terminal, answering: Self.sixelAnswers)
        await terminal.wait(for: "0 pictures of 1 drawn", from: before)
        let shown = String(decoding: terminal.bytes[before...], as: UTF8.self)
        await terminal.quit()
        return (shown, FileManager.default.fileExists(atPath: chafa.mark))
    }

    @Test func aTruncatedJPEGIsRefusedWithoutRunningChafa() async throws {
        let outcome = try await refusal(of: Array(Self.jpeg.dropLast(3)))
        #expect(outcome.shown.contains("1  alt · not drawn: the JPEG file is cut short"))
        #expect(!outcome.chafaRan)
    }

    @Test func randomBytesAreRefusedWithoutRunningChafa() async throws {
        var generator = SystemRandomNumberGenerator()
        let outcome = try await refusal(of: [0] + (0..<5000).map { _ in UInt8.random(in: 0...255, using: &generator) })
        #expect(outcome.shown.contains("1  alt · not drawn: not a PNG, JPEG, GIF or WebP picture"))
        #expect(!outcome.chafaRan)
    }

    @Test func withChafaAJPEGOnASixelTerminalIsDrawnInSixels() async throws {
        // Installed by `make test-deps`: this test fails rather than skip without it.
        try #require(ChildProcess.executablePath("/usr/bin/chafa") != nil, "chafa is not installed: run `make test-deps`")
        let server = try HostileServer()
        try serve(server, "/grey.jpg", Self.jpeg)
        let (scenario, environment) = try await setUp(server, pictures: [("/grey.jpg", "grey")])
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = await pressP(terminal, answering: Self.sixelAnswers)
        await terminal.wait(for: "1 picture of 1 drawn (sixel)", from: before)
        let drawn = String(decoding: terminal.bytes[before...], as: UTF8.self)
        let start = try #require(drawn.range(of: "\u{1b}[2;3H\u{1b}P"))
        #expect(drawn[start.upperBound...].contains("\u{1b}\\"))
        await terminal.quit()
        withExtendedLifetime(scenario) {}
    }

    @Test func aServerSendingMoreThanTheLimitIsStoppedAtIt() async throws {
        let server = try HostileServer()
        // 17 MiB of text where a picture was expected.
        try server.route("/huge.png", ["status": 200, "body": "", "repeat": ["text": String(repeating: "x", count: 1024), "count": 17 * 1024]])
        let (scenario, environment) = try await setUp(server, pictures: [("/huge.png", "huge")])
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = await pressP(terminal, answering: Self.kittyAnswers)
        await terminal.wait(for: "0 pictures of 1 drawn", from: before)
        #expect(terminal.text.contains("not fetched:"))
        await terminal.quit()
        withExtendedLifetime(scenario) {}
    }

    @Test func aServerThatNeverAnswersCostsTheTimeLimit() async throws {
        let server = try HostileServer()
        try server.route("/slow.png", ["status": 200, "body": "", "delay": 120])
        let (scenario, environment) = try await setUp(server, pictures: [("/slow.png", "slow")])
        let terminal = try FakeTerminal(environment: environment)
        await terminal.wait(for: "timeline · 1/1")
        let before = await pressP(terminal, answering: Self.kittyAnswers)
        // The view comes back with the reason (bounded by the fetch's 10 s, waited for up to 60).
        await terminal.wait(for: "0 pictures of 1 drawn", from: before)
        #expect(terminal.text.contains("not fetched:"))
        await terminal.quit()
        withExtendedLifetime(scenario) {}
    }
}
