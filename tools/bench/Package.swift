// swift-tools-version:6.0
import Foundation
import PackageDescription

// SwiftPM names a path dependency after its directory (`main`, `timeline`, …): take it from here.
let rootPackage = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    .standardizedFileURL.lastPathComponent

// The benchmark suite of issue 5. A separate package so that GRDB.swift (the peer we compare
// against) and full Foundation are never linked into TimelineKit or the `timeline` tool.
let package = Package(
    name: "timeline-bench",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: "../.."),
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // The pseudo-terminal runner (posix_spawn, wait4, no sleeps) and page-cache eviction.
        .target(name: "CBenchSupport"),
        // liblz4's frame API, to compress the JSON and property-list payloads like the snapshot.
        .systemLibrary(name: "CBenchLZ4", pkgConfig: "liblz4", providers: [.apt(["liblz4-dev"])]),
        // Measures a child's peak RSS without the bench's own memory in it (see its main.c).
        .executableTarget(name: "rss-probe"),
        .executableTarget(
            name: "bench",
            dependencies: [
                "CBenchSupport",
                "CBenchLZ4",
                .product(name: "TimelineKit", package: rootPackage),
                .product(name: "GRDB", package: "GRDB.swift"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
