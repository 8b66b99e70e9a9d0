// swift-tools-version:6.0
// An embedder of TimelineKit, as another project would write one (issue 35): it depends on this
// repository by path and imports TimelineKit plainly (no @testable, nothing internal). `make
// example-check` builds and runs it, then `timeline show` paints what it stored.
import PackageDescription

let package = Package(
    name: "weather-station",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "timeline", path: "../.."),
    ],
    targets: [
        .executableTarget(
            name: "weather-station",
            dependencies: [.product(name: "TimelineKit", package: "timeline")]
        ),
        // Every example of the public API, from the doc comments and the pages
        // (tools/doc-examples/extract writes Generated.swift; `check` builds it). Examples are
        // fragments that compute values they do not use: the compiler's "never used" warnings
        // are expected there, and silenced in this target only.
        .target(
            name: "DocExamples",
            dependencies: [
                .product(name: "TimelineKit", package: "timeline"),
                .product(name: "TimelineFeeds", package: "timeline"),
            ],
            swiftSettings: [.unsafeFlags(["-suppress-warnings"])]
        ),
    ],
    swiftLanguageModes: [.v6]
)
