import Foundation

/// The official Python AT Protocol SDK's verdict on records a command wrote, for the end-to-end
/// tests: `tools/atproto-sdk/sdk.py records` in the environment `make test-deps` makes
/// (`.build/atproto-sdk`), as TimelineKitTests' `AtprotoSDK` asks it (a test target cannot
/// use another's support files). Without that environment it throws, saying how to make it:
/// the tests fail, they never skip.
enum AtprotoSDKRecords {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let python = Scenario.repositoryPath(".build/atproto-sdk/bin/python")
    static let script = Scenario.repositoryPath("tools/atproto-sdk/sdk.py")

    /// For each record, `NSNull` when `models.AppBskyFeedPost.Record` takes it, else the
    /// SDK's reason.
    static func verdicts(_ records: [[String: Any]]) throws -> [Any]? {
        guard FileManager.default.isExecutableFile(atPath: python) else {
            throw Failure(description: "the atproto SDK is not installed (\(python) is missing): run `make test-deps` or tools/atproto-sdk/setup")
        }
        let directory = NSTemporaryDirectory() + "atproto-sdk-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // Files, not pipes: a large question and a large answer cannot block each other.
        let input = directory + "/in.json", output = directory + "/out.json", errors = directory + "/errors.txt"
        try JSONSerialization.data(withJSONObject: records).write(to: URL(fileURLWithPath: input))
        for file in [output, errors] { try Data().write(to: URL(fileURLWithPath: file)) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script, "records"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: input))
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        process.standardError = try FileHandle(forWritingTo: URL(fileURLWithPath: errors))
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "sdk.py records exited with \(process.terminationStatus): \((try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")")
        }
        return try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: output))) as? [Any]
    }
}
