// swift-tools-version:6.0
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory (`main`, `timeline`, …): take it from here.
let rootPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .standardizedFileURL.lastPathComponent

// The libFuzzer target of issue 6 for the snapshot reader. A separate package so that the
// sanitizer flags never reach the `timeline` tool; `tools/fuzz/run` builds and runs it.
let package = Package(
    name: "timeline-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "snapshot-fuzz",
            dependencies: [.product(name: "TimelineKit", package: rootPackage)]
        ),
        // Issue 12: what `timeline import` reads (JSON Lines, Mastodon, Twitter); `tools/fuzz/run-import`.
        .executableTarget(
            name: "import-fuzz",
            dependencies: [.product(name: "TimelineKit", package: rootPackage)]
        ),
        // Issue 12: HTML to text, and rendering (width, wrapping, neutralising); `run-text` runs them.
        .target(name: "FuzzSupport"),
        .executableTarget(name: "html-fuzz", dependencies: ["FuzzSupport", .product(name: "TimelineKit", package: rootPackage)]),
        .executableTarget(name: "render-fuzz", dependencies: ["FuzzSupport", .product(name: "TimelineKit", package: rootPackage)]),
        // Issue 35: feeds (expat's XML, JSON Feed, OPML, page discovery) through TimelineFeeds; `run-feeds`.
        .executableTarget(name: "feed-fuzz", dependencies: [
            "FuzzSupport", .product(name: "TimelineFeeds", package: rootPackage), .product(name: "TimelineKit", package: rootPackage),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
