import Foundation
import Testing

/// TimelineKit's folders are its layers (docs/architecture.md): no folder uses one above it, and
/// no folders loop (issue 26). One module cannot have the compiler keep that, so
/// `tools/layers/layers check` does, and these tests run it, and show that it finds what it is
/// for on a small tree of its own.
@Suite struct ArchitectureTests {
    struct Outcome {
        var status: Int32
        var output: String
        var errors: String
    }

    static func layers(_ arguments: [String]) throws -> Outcome {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Scenario.repositoryPath("tools/layers/layers")] + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Outcome(status: process.terminationStatus, output: String(decoding: out, as: UTF8.self),
                       errors: String(decoding: err, as: UTF8.self))
    }

    /// A scratch tree: `files` (path -> Swift source) under Sources, and the document.
    static func tree(_ files: [String: String], layers: String) throws -> (sources: String, doc: String, remove: () -> Void) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("layers-\(UUID().uuidString)").path
        for (path, source) in files {
            let url = URL(fileURLWithPath: directory + "/Sources/" + path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try source.write(to: url, atomically: true, encoding: .utf8)
        }
        let doc = directory + "/architecture.md"
        try "# House\n\n```layers\n\(layers)\n```\n".write(toFile: doc, atomically: true, encoding: .utf8)
        return (directory + "/Sources", doc, { try? FileManager.default.removeItem(atPath: directory) })
    }

    @Test func theLibraryIsBuiltAsDocsArchitectureSays() throws {
        let outcome = try Self.layers(["check"])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output.contains("no loop"))
    }

    @Test func aUseOfALayerAboveAndTheLoopItMakesFail() throws {
        let scratch = try Self.tree([
            "Low/Alpha.swift": "struct Alpha {\n    var beta: Beta?\n}\n",
            "High/Beta.swift": "struct Beta {\n    var alpha: Alpha\n}\n",
        ], layers: "Bottom: Low\nTop: High")
        defer { scratch.remove() }
        let outcome = try Self.layers(["check", "--sources", scratch.sources, "--doc", scratch.doc])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("Low/ (layer Bottom) uses High/ (a layer above, Top): Low/Alpha.swift:2 Beta"), "\(outcome.errors)")
        #expect(outcome.errors.contains("loop: High, Low"), "\(outcome.errors)")
    }

    @Test func siblingsMayNotUseEachOtherButAUnitsFoldersMay() throws {
        let files = [
            "Store/Store.swift": "final class Store {\n    func write() { maintain() }\n}\n",
            "Maintenance/Store+Maintenance.swift": "extension Store {\n    func maintain() {}\n}\n",
        ]
        let siblings = try Self.tree(files, layers: "Store: Store, Maintenance")
        defer { siblings.remove() }
        let refused = try Self.layers(["check", "--sources", siblings.sources, "--doc", siblings.doc])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("Store/ (layer Store) uses Maintenance/ (its own layer, Store): Store/Store.swift:2 maintain"), "\(refused.errors)")

        let unit = try Self.tree(files, layers: "Store = Store, Maintenance")
        defer { unit.remove() }
        let allowed = try Self.layers(["check", "--sources", unit.sources, "--doc", unit.doc])
        #expect(allowed.status == 0, "\(allowed.errors)")
    }

    @Test func namesInCommentsAndStringsAreNotUsesButInterpolationsAre() throws {
        let scratch = try Self.tree([
            "Low/Alpha.swift": """
            /// Unlike `Beta`, which is above.
            struct Alpha {
                let name = "Beta /* not a comment */"
                let raw = #"a "Beta" here"#
                let lines = \"""
                    Beta
                    \"""
                func said(_ value: Int) -> String { "\\(value) \\(Gamma.shared)" }
            }
            """,
            "High/Beta.swift": "struct Beta {}\n",
            "High/Gamma.swift": "enum Gamma {\n    static let shared = 1\n}\n",
        ], layers: "Bottom: Low\nTop: High")
        defer { scratch.remove() }
        let outcome = try Self.layers(["edges", "--where", "--sources", scratch.sources])
        #expect(outcome.status == 0, "\(outcome.errors)")
        #expect(outcome.output == "Low -> High (1)\n    Low/Alpha.swift:8 Gamma\n", "\(outcome.output)")
    }

    @Test func anAllowLineForAUseThatIsGoneFails() throws {
        let scratch = try Self.tree([
            "Low/Alpha.swift": "struct Alpha {}\n",
            "High/Beta.swift": "struct Beta {\n    var alpha: Alpha\n}\n",
        ], layers: "Bottom: Low\nTop: High\nallow Low -> High: kept until the fix lands")
        defer { scratch.remove() }
        let outcome = try Self.layers(["check", "--sources", scratch.sources, "--doc", scratch.doc])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("allows Low -> High, which is no longer used"), "\(outcome.errors)")
    }

    @Test func aFolderInNoLayerFails() throws {
        let scratch = try Self.tree(["Low/Alpha.swift": "struct Alpha {}\n", "New/Delta.swift": "struct Delta {}\n"],
                                    layers: "Bottom: Low")
        defer { scratch.remove() }
        let outcome = try Self.layers(["check", "--sources", scratch.sources, "--doc", scratch.doc])
        #expect(outcome.status == 1)
        #expect(outcome.errors.contains("New/ is in no layer"), "\(outcome.errors)")
    }
}
