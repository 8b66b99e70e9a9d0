#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// What `timeline init SHELL [--count N]` was asked for, read by hand (`parse(_:)`) as `show`'s
/// line is: `init` runs at a shell start whenever the start-up line finds no cached copy of the
/// hook (the first time, after an upgrade) and at every start for those who keep the older
/// `eval "$(timeline init bash)"` line, and ArgumentParser's reflection is most of its cost
/// (issue 28: 11.7 M instructions, 8 M of them the parser). Anything else (`--help`, a count out
/// of range, an unknown shell) is ArgumentParser's to read and explain (`InitCommand`).
struct InitRequest: Equatable {
    var shell: ShellSetup
    var count: Int?

    /// `init`'s options as `InitCommand` declares them (its shell is the one positional word,
    /// read first); `LaunchArgumentsTests` holds the table to ArgumentParser's.
    static let flagTable = LaunchArguments.Table("""
        --count <value>
        """)

    /// The counts `--count` takes.
    static let counts = 1 ... 1_000

    /// Reads the words after `init`; `nil` when ArgumentParser should.
    static func parse(_ arguments: ArraySlice<String>) -> InitRequest? {
        guard let first = arguments.first, let shell = ShellSetup(rawValue: first),
              var given = LaunchArguments(arguments.dropFirst(), table: flagTable),
              case let .some(count) = given.value("--count", as: { Int($0) }), given.isEmpty
        else { return nil }
        if let count, !counts.contains(count) { return nil }
        return InitRequest(shell: shell, count: count)
    }

    /// Prints the snippet and keeps its copy in the cache directory for the start-up line
    /// (`ShellSetup.startupLine`). The copy is a saving, not the command's work: one that cannot
    /// be written (no HOME, a read-only cache) is skipped without a word, since a shell start is
    /// no place for notes, and the start-up line then runs `init` again next time.
    func run() -> Int32 {
        Terminal.emit(shell.snippet(count: count))
        writeCachedCopy()
        return ExitStatus.success
    }

    /// `$XDG_CACHE_HOME/timeline`, `$HOME/.cache/timeline` (a relative XDG_CACHE_HOME is ignored,
    /// as the XDG spec says); `nil` without either.
    static func cacheDirectory() -> String? {
        if let cache = Terminal.environment("XDG_CACHE_HOME"), cache.hasPrefix("/") { return cache + "/timeline" }
        guard let home = Terminal.environment("HOME"), !home.isEmpty else { return nil }
        return home + "/.cache/timeline"
    }

    private func writeCachedCopy() {
        guard let directory = Self.cacheDirectory(), let binary = FileSystem.resolvedPath(SyncCommand.ownExecutable) else { return }
        let path = directory + "/" + ShellSetup.cacheFileName(shell: shell, count: count)
        guard let script = shell.cachedScript(count: count, binary: binary, cachePath: path) else { return }
        // Already there and newer than the binary (the older `eval "$(timeline init bash)"`
        // line runs `init` at every start): a read, not a rewrite that waits for the disk (the
        // write is flushed). A copy older than the binary is rewritten even when the same, or
        // its own check would send every start back here.
        if let existing = try? FileSystem.readRegularFile(at: path, limit: 1 << 16), existing.elementsEqual(script.utf8),
           let written = FileSystem.modificationTime(at: path), let built = FileSystem.modificationTime(at: binary), written > built {
            return
        }
        do throws(FileSystemError) {
            try FileSystem.createDirectories(directory, permissions: 0o700)
            // A temporary name of this process's own: two shells starting together each write
            // theirs and rename it into place; either complete copy is right.
            try FileSystem.replaceAtomically(path, with: Array(script.utf8), temporaryPath: path + ".\(String(UInt32.random(in: .min ... .max), radix: 16)).tmp", permissions: 0o644)
        } catch {
            return
        }
    }
}
