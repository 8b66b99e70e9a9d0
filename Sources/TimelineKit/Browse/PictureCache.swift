/// The pictures `timeline browse` fetched, kept on disk so that a second `p` costs no request
/// and a picture seen once still shows offline: `$XDG_CACHE_HOME/timeline/pictures/` (else
/// `~/.cache/timeline/pictures/`), a directory only its owner can enter (0700).
///
/// Each file is named by the SHA-256 of its URL in hex (``ContentDigest/sha256(_:)``): the
/// server never chooses a file name, so no `../`, no link, no name too long. A file is written
/// to a temporary name in the same directory and renamed, so a reader (another `browse`) sees
/// a whole file or none. After each write the oldest files (by modification time) are removed
/// until the directory holds at most ``sizeLimit`` bytes.
///
/// ```swift
/// let cache = PictureCache(directory: "/tmp/pictures")
/// try cache.store(bytes, for: "https://files.example/a.png")
/// let again = cache.read("https://files.example/a.png")
/// ```
package struct PictureCache: Sendable {
    /// The directory the pictures are in.
    package let directory: String
    /// The most bytes the cache keeps.
    package let sizeLimit: Int

    /// 100 MiB: a few hundred photos, and a cache nobody has to think about.
    package static let defaultSizeLimit = 100 << 20

    package init(directory: String, sizeLimit: Int = PictureCache.defaultSizeLimit) {
        self.directory = directory
        self.sizeLimit = sizeLimit
    }

    /// The standard place: `$XDG_CACHE_HOME/timeline/pictures` when that is an absolute path
    /// (the XDG spec says a relative one is ignored), else `$HOME/.cache/timeline/pictures`;
    /// `nil` with neither.
    package static func standardDirectory(environment: (String) -> String?) -> String? {
        if let cache = environment("XDG_CACHE_HOME"), cache.hasPrefix("/") { return cache + "/timeline/pictures" }
        if let home = environment("HOME"), !home.isEmpty { return home + "/.cache/timeline/pictures" }
        return nil
    }

    /// The file name of `url`'s picture: 64 hex digits.
    package static func fileName(for url: String) -> String {
        ContentDigest.sha256(Array(url.utf8)).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 15)]])
        }.joined()
    }

    /// Where `url`'s picture is kept.
    package func path(for url: String) -> String { directory + "/" + Self.fileName(for: url) }

    /// The kept picture of `url`, or `nil` when there is none (or it cannot be read).
    package func read(_ url: String) -> [UInt8]? {
        try? FileSystem.readRegularFile(at: path(for: url), limit: PictureFetcher.sizeLimit)
    }

    /// Keeps `bytes` as `url`'s picture, then removes the oldest pictures beyond ``sizeLimit``.
    package func store(_ bytes: [UInt8], for url: String) throws(FileSystemError) {
        try FileSystem.createDirectories(directory, permissions: 0o700)
        let name = Self.fileName(for: url)
        // A name of its own for each writer: two `browse` writing the same picture each rename a
        // whole file of their own into place, the last one winning.
        let suffix = (0..<8).map { _ in String(UInt8.random(in: 0...255), radix: 16) }.joined()
        try FileSystem.replaceAtomically(directory + "/" + name, with: bytes, temporaryPath: directory + "/." + name + "." + suffix,
                                         permissions: 0o600, flushing: false)
        evict(keeping: name)
    }

    /// Removes the oldest pictures until the cache holds at most ``sizeLimit`` bytes; `kept`
    /// (the one just written) goes last.
    private func evict(keeping kept: String) {
        var files: [(name: String, size: Int64, modified: Int64)] = []
        for name in FileSystem.directoryEntries(at: directory) where Self.isPictureName(name) {
            guard let identity = FileSystem.identity(at: directory + "/" + name), identity.isRegularFile else { continue }
            files.append((name, identity.size, identity.modified.totalNanoseconds))
        }
        var total = files.reduce(Int64(0)) { $0 + $1.size }
        guard total > Int64(sizeLimit) else { return }
        files.sort { ($0.name == kept ? 1 : 0, $0.modified, $0.name) < ($1.name == kept ? 1 : 0, $1.modified, $1.name) }
        for file in files where total > Int64(sizeLimit) {
            if FileSystem.removeFile(directory + "/" + file.name) { total -= file.size }
        }
    }

    /// Whether `name` is one the cache gave (64 hex digits): nothing else in the directory is removed.
    static func isPictureName(_ name: String) -> Bool {
        name.utf8.count == 64 && name.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }
}
