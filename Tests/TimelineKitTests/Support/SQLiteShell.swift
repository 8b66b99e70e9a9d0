import Foundation

/// The stock `sqlite3` command-line shell, for writes made outside TimelineKit: the way a person
/// typing SQL (or another program) changes the database.
enum SQLiteShell {
    struct Failure: Error, CustomStringConvertible {
        let status: Int32
        let output: String
        var description: String { "sqlite3 exited \(status): \(output)" }
    }

    /// Runs `sql` against the database at `path` and returns what the shell printed.
    @discardableResult
    static func run(_ path: String, _ sql: String) throws -> String {
        try ExternalCommand.run("/usr/bin/sqlite3", [path, sql])
    }
}

enum ExternalCommand {
    /// Runs a program to completion and returns its standard output; throws when it fails.
    @discardableResult
    static func run(_ executable: String, _ arguments: [String], input: Data? = nil) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        let stdin = Pipe()
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: data, as: UTF8.self)
        guard process.terminationStatus == 0 else {
            throw SQLiteShell.Failure(status: process.terminationStatus, output: text)
        }
        return text
    }
}
