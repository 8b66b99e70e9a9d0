import Foundation

/// The official Python AT Protocol SDK (`atproto` on PyPI, pinned in
/// `tools/atproto-sdk/requirements.txt`), asked through `tools/atproto-sdk/sdk.py` in the
/// virtual environment `make test` makes (`tools/atproto-sdk/setup`, `.build/atproto-sdk`).
///
/// Without that environment every call throws, saying how to make it: the tests that compare
/// with the SDK fail, they never skip.
enum AtprotoSDK {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()  // AtprotoSDK.swift, Support, Bluesky, TimelineKitTests, Tests
    static let python = root.appendingPathComponent(".build/atproto-sdk/bin/python").path
    static let script = root.appendingPathComponent("tools/atproto-sdk/sdk.py").path

    /// Runs `sdk.py command arguments…` with `input` (JSON) on standard input and returns its
    /// standard output parsed as JSON; at most `timeout` seconds.
    static func json(_ command: String, _ arguments: [String] = [], input: Any? = nil, timeout: Double = 60) throws -> Any {
        try JSONSerialization.jsonObject(with: run(command, arguments, input: input, timeout: timeout), options: [.fragmentsAllowed])
    }

    /// Runs `sdk.py command arguments…` and returns its standard output.
    static func run(_ command: String, _ arguments: [String] = [], input: Any? = nil, timeout: Double = 60) throws -> Data {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "the atproto SDK is not installed (\(python) is missing): run `make test-deps` or tools/atproto-sdk/setup")
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("atproto-sdk-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // Files, not pipes: a large question and a large answer cannot block each other.
        let inputFile = directory.appendingPathComponent("in.json")
        let outputFile = directory.appendingPathComponent("out.json")
        let errorFile = directory.appendingPathComponent("errors.txt")
        try (input.map { try JSONSerialization.data(withJSONObject: $0, options: [.fragmentsAllowed]) } ?? Data()).write(to: inputFile)
        try Data().write(to: outputFile)
        try Data().write(to: errorFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, command] + arguments
        process.standardInput = try FileHandle(forReadingFrom: inputFile)
        process.standardOutput = try FileHandle(forWritingTo: outputFile)
        process.standardError = try FileHandle(forWritingTo: errorFile)
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.02) }
        if process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            throw Failure(description: "sdk.py \(command) did not finish within \(Int(timeout)) s")
        }
        guard process.terminationStatus == 0 else {
            let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
            throw Failure(description: "sdk.py \(command) exited with \(process.terminationStatus): \(errors)")
        }
        return try Data(contentsOf: outputFile)
    }
}
