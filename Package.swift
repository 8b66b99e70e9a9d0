// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "timeline",
    platforms: [.macOS(.v15)],
    products: [
        .library(name: "TimelineKit", targets: ["TimelineKit"]),
        // Feeds (RSS, Atom, JSON Feed, OPML), parsed into values TimelineKit stores: built on
        // TimelineKit's public API only, as any embedder's source would be (issue 35).
        .library(name: "TimelineFeeds", targets: ["TimelineFeeds"]),
        .executable(name: "timeline", targets: ["timeline"]),
    ],
    dependencies: [
        // The command tree and its help. `timeline show` parses its own flags first and never
        // runs ArgumentParser's reflection on the launch path (see Sources/timeline/main.swift).
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        // SQLite and LZ4 come from the system so that a fully static build can link their
        // `.a` archives (shipped by the -dev packages) and launch as fast as `cat`. Their modules
        // are named for this package (not `CSQLite`, which other packages' targets are also
        // called: two modules of one name cannot be built into one program).
        .systemLibrary(
            name: "TimelineSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"]), .brew(["sqlite"])]
        ),
        .systemLibrary(
            name: "TimelineLZ4",
            pkgConfig: "liblz4",
            providers: [.apt(["liblz4-dev"]), .brew(["lz4"])]
        ),
        // expat reads feeds' XML; only the feeds target links it, so `timeline show` never does.
        .systemLibrary(
            name: "TimelineExpat",
            pkgConfig: "expat",
            providers: [.apt(["libexpat1-dev"]), .brew(["expat"])]
        ),
        // `statfs` on Linux, whose header Swift's Glibc module leaves out (Files/FileSystem.swift).
        .systemLibrary(name: "TimelineFileSystem"),
        .target(
            name: "TimelineKit",
            dependencies: ["TimelineSQLite", "TimelineLZ4", "TimelineFileSystem"]
        ),
        .target(
            name: "TimelineFeeds",
            dependencies: ["TimelineKit", "TimelineExpat"]
        ),
        // Where the standard library finds the command line, kept by a constructor instead of
        // read from /proc/self/maps before `main` (Sources/CLaunchArguments/arguments.c).
        .target(name: "CLaunchArguments"),
        .executableTarget(
            name: "timeline",
            dependencies: ["TimelineKit", "TimelineFeeds", "CLaunchArguments", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .testTarget(
            name: "TimelineKitTests",
            dependencies: ["TimelineKit"]
        ),
        .testTarget(
            name: "TimelineFeedsTests",
            dependencies: ["TimelineFeeds", "TimelineKit"]
        ),
        // End-to-end tests: they run the built `timeline` binary as a process, on pipes, under a
        // pseudo-terminal and in tmux.
        .testTarget(
            name: "TimelineCLITests",
            dependencies: ["timeline", "TimelineKit"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
