import Foundation
import TimelineKit

/// A temporary home for one test's timeline: a database path, the `timeline` runner pointed at
/// it, and helpers to fill it.
final class Scenario {
    let directory: String
    let databasePath: String
    var snapshotPath: String { SnapshotFile.path(forDatabaseAt: databasePath) }
    var timeline: TimelineProcess

    init(environment: [String: String] = [:]) {
        directory = NSTemporaryDirectory() + "timeline-cli-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        databasePath = directory + "/timeline.sqlite"
        timeline = TimelineProcess(databasePath: databasePath, extra: environment)
    }

    deinit { try? FileManager.default.removeItem(atPath: directory) }

    static let sampleTimeline = repositoryPath("Fixtures/sample-timeline.jsonl")

    static func repositoryPath(_ relative: String) -> String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(relative).path
    }

    /// Imports the sample timeline (37 users, 337 messages).
    @discardableResult
    func importSample() throws -> TimelineProcess.Result {
        let result = try timeline.run(["import", Self.sampleTimeline])
        precondition(result.status == 0, "import failed: \(result.errors)")
        return result
    }

    /// Runs SQL through the stock sqlite3 shell, as another process would.
    @discardableResult
    func sqlite(_ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/sqlite3")
        process.arguments = [databasePath, sql]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "sqlite3 failed: \(sql)")
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func fileBytes(_ path: String) -> Data? { FileManager.default.contents(atPath: path) }
}
