import Foundation

/// Files kept in the repository's `Fixtures/` folder.
enum Fixtures {
    static func path(_ name: String) -> String {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()  // Fixtures.swift, Support, TimelineKitTests, Tests
            .appendingPathComponent("Fixtures").appendingPathComponent(name).path
    }
}
