import Foundation
import Testing

/// The first day from an empty home directory: `login`, then `sync`, then `show`, with every
/// path at its default. Until issue 23 the first `sync` failed on the database's missing
/// directory, which tests that created it first never saw.
@Suite struct FirstSyncTests {
    @Test func theFirstMastodonSyncAfterLoginCreatesThePrivateDataDirectoryAndStores() throws {
        let server = try MastodonTestServer()
        let home = EmptyHome()
        let login = try home.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"],
                                          input: Data((MastodonTestServer.token + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        #expect(!home.exists(".local"), "login touches no database")

        let sync = try home.timeline.run(["sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(sync.output.hasPrefix("Synced "), "\(sync.output)")
        #expect(home.permissions(".local/share/timeline") == 0o700)
        #expect(FileManager.default.fileExists(atPath: home.databasePath))
        let show = try home.timeline.run(["show", "-n", "2"])
        #expect(show.status == 0 && !show.output.isEmpty, "\(show.errors)")
    }

    @Test func theFirstBlueskySyncAfterLoginCreatesThePrivateDataDirectoryAndStores() throws {
        let server = try BlueskyTestServer.start()
        let home = EmptyHome()
        let login = try home.timeline.run(["login", "bluesky", BlueskyTestServer.handle, "--service", server.baseURL, "--app-password-stdin"],
                                          input: Data((BlueskyTestServer.password + "\n").utf8))
        #expect(login.status == 0, "\(login.errors)")
        let sync = try home.timeline.run(["sync"])
        #expect(sync.status == 0, "\(sync.errors)")
        #expect(home.permissions(".local/share/timeline") == 0o700)
        #expect(try home.timeline.run(["show", "-n", "2"]).output.isEmpty == false)
    }

    @Test func aBackgroundSyncAtTheFirstShellStartCreatesTheDirectoryAndSyncs() throws {
        let server = try MastodonTestServer()
        let home = EmptyHome()
        _ = try home.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"],
                                  input: Data((MastodonTestServer.token + "\n").utf8))
        let started = try home.timeline.run(["sync", "--if-older", "5m", "--background"])
        #expect(started.status == 0 && started.errors.isEmpty, "\(started.errors)")
        let stamp = home.databasePath + ".last-sync"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: stamp), Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(FileManager.default.fileExists(atPath: stamp), "log: \((try? String(contentsOfFile: home.databasePath + ".sync.log", encoding: .utf8)) ?? "")")
    }

    /// Issue 12's rule stays: a command that fails before it writes creates nothing.
    @Test func aSyncWithNoAccountCreatesNothing() throws {
        let home = EmptyHome()
        let sync = try home.timeline.run(["sync"])
        #expect(sync.status != 0)
        #expect(!home.exists(".local"))
    }
}
