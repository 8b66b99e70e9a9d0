// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "timeline",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TimelineKit", targets: ["TimelineKit"]),
        .executable(name: "timeline", targets: ["timeline"]),
    ],
    targets: [
        // SQLite and LZ4 come from the system so that a fully static build can link their
        // `.a` archives (shipped by the -dev packages) and launch as fast as `cat`.
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "CLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]
        ),
        .target(
            name: "TimelineKit",
            dependencies: ["CSQLite", "CLZ4"]
        ),
        .executableTarget(
            name: "timeline",
            dependencies: ["TimelineKit"]
        ),
        .testTarget(
            name: "TimelineKitTests",
            dependencies: ["TimelineKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
