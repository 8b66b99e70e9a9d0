import Foundation

/// Import lines written by hand for the reliability tests: every string is escaped so that any
/// scalar (controls, C1, bidi, tags) travels through the JSON untouched.
enum ImportLine {
    static func user(id: String, handle: String, name: String) -> String {
        #"{"type":"user","id":\#(json(id)),"handle":\#(json(handle)),"name":\#(json(name))}"#
    }

    /// A message created `createdAt` milliseconds after the Unix epoch.
    static func message(id: String, author: String, text: String, createdAt: Int64, extra: String = "") -> String {
        #"{"type":"message","id":\#(json(id)),"author":\#(json(author)),"text":\#(json(text)),"created_at":\#(json(rfc3339(createdAt)))\#(extra)}"#
    }

    /// A JSON string: printable ASCII as it is, everything else as `\uXXXX` escapes (surrogate
    /// pairs above the BMP).
    static func json(_ text: String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case " "..."~": out.unicodeScalars.append(scalar)
            default:
                for unit in String(scalar).utf16 { out += String(format: "\\u%04x", unit) }
            }
        }
        return out + "\""
    }

    static func rfc3339(_ milliseconds: Int64) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    static func write(_ lines: [String], to path: String) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: URL(fileURLWithPath: path))
    }
}

extension TimelineProcess {
    /// Starts `timeline` with its output thrown away and returns the running process, for tests
    /// that kill it or run many at once.
    func start(_ arguments: [String]) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Self.executable)
        process.arguments = arguments
        process.environment = environment
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// `run` or `runInTerminal`, timed from just before the process starts until it has exited.
    func timed(_ arguments: [String], inTerminal: Bool) throws -> (result: Result, seconds: Double) {
        let started = ContinuousClock.now
        let result = inTerminal ? try runInTerminal(arguments) : try run(arguments)
        return (result, Self.seconds(ContinuousClock.now - started))
    }

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}

extension Scenario {
    /// `sqlite3 DB SQL` that reports a failure instead of stopping the test run.
    @discardableResult
    func query(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = ["-bail", databasePath, sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let errorData = ErrorCollector(errors.fileHandleForReading)
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let problem = String(decoding: errorData.finish(), as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw ShellFailure(description: "sqlite3 exited \(process.terminationStatus): \(problem)")
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Another process that holds the database exclusively (exclusive locking mode, so WAL
    /// readers must wait too) for `seconds`, then rolls back: it changes nothing.
    func holdExclusively(seconds: Double) throws -> Process {
        let ready = directory + "/holder-ready-" + UUID().uuidString
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        holder.arguments = [databasePath, "PRAGMA locking_mode=EXCLUSIVE;", "BEGIN EXCLUSIVE;",
                            "UPDATE messages SET like_count = like_count;", ".shell touch '\(ready)'", ".shell sleep \(seconds)", "ROLLBACK;"]
        holder.standardOutput = FileHandle.nullDevice
        holder.standardError = FileHandle.nullDevice
        try holder.run()
        // Returns once the lock is taken: the shell touches the file after its UPDATE.
        let deadline = Date().addingTimeInterval(10)
        while !FileManager.default.fileExists(atPath: ready), holder.isRunning, Date() < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        guard FileManager.default.fileExists(atPath: ready) else {
            holder.terminate()
            throw ShellFailure(description: "the sqlite3 shell did not take the lock")
        }
        return holder
    }
}

struct ShellFailure: Error, CustomStringConvertible {
    let description: String
}

/// Results that threads fill in, one slot each.
private final class ResultSlots<T>: @unchecked Sendable {
    // @unchecked Sendable: each thread writes only its own slot, under `lock`, and the slots are
    // read only after every thread has left the dispatch group.
    var results: [Swift.Result<T, any Error>?]
    let lock = NSLock()
    init(_ count: Int) { results = Array(repeating: nil, count: count) }
}

/// Runs `body` for each index on its own thread, all at once, and returns the results in order.
func concurrently<T>(_ count: Int, _ body: @escaping @Sendable (Int) throws -> T) -> [Swift.Result<T, any Error>] {
    let slots = ResultSlots<T>(count)
    let group = DispatchGroup()
    for index in 0..<count {
        group.enter()
        Thread.detachNewThread {
            let result = Swift.Result { try body(index) }
            slots.lock.lock()
            slots.results[index] = result
            slots.lock.unlock()
            group.leave()
        }
    }
    group.wait()
    return slots.results.map { $0! }
}

/// SplitMix64, as in TimelineKitTests/Support (a separate test target cannot share it): seeded,
/// so a failing run can be replayed.
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
