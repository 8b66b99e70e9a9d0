import Foundation
import Testing

/// `show --sync-if-older AGE`, what the shell hook runs (issue 28): the background sync starts
/// from `show` itself, only when one is due and an account exists, and `show` never waits for it.
/// The lock file is touched by the start itself, before `show` returns, so its modification time
/// says at once whether a sync was started.
@Suite struct ShowStartsSyncTests {
    static let old = Date().addingTimeInterval(-3600)

    static func setModificationTime(_ date: Date, of path: String) throws {
        try FileManager.default.setAttributes([.modificationDate: date], ofItemAtPath: path)
    }

    static func modificationTime(of path: String) -> Date? {
        try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate] as? Date
    }

    /// The same time, as the file system keeps it (to the microsecond, or coarser).
    static func same(_ time: Date?, _ expected: Date) -> Bool {
        guard let time else { return false }
        return abs(time.timeIntervalSince(expected)) < 0.01
    }

    /// Waits (at most 60 s) for the stamp a successful sync leaves.
    static func waitForStamp(newerThan date: Date, at path: String) -> Bool {
        let deadline = Date().addingTimeInterval(60)
        while Date() < deadline {
            if let time = modificationTime(of: path), time > date { return true }
            Thread.sleep(forTimeInterval: 0.05)
        }
        return false
    }

    @Test func showStartsTheSyncWhenDueAndNotWhenFresh() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let stamp = scenario.databasePath + ".last-sync"
        let lock = scenario.databasePath + ".sync-lock"

        // Never synced: due. show is back at once; the sync it started stores the timeline.
        let first = try scenario.timeline.run(["show", "--sync-if-older", "5m"])
        #expect(first.status == 0, "\(first.errors)")
        #expect(FileManager.default.fileExists(atPath: lock), "no sync was started")
        #expect(Self.waitForStamp(newerThan: .distantPast, at: stamp))
        #expect(try SyncCommandTests.homeRequests(server) > 0)

        // Fresh (the stamp is seconds old): nothing started, the lock is not touched.
        try Self.setModificationTime(Self.old, of: lock)
        let requests = try server.requests().count
        let fresh = try scenario.timeline.run(["show", "--sync-if-older", "5m"])
        #expect(fresh.status == 0, "\(fresh.errors)")
        #expect(Self.same(Self.modificationTime(of: lock), Self.old))
        #expect(try server.requests().count == requests)

        // Stale: started again, and it syncs.
        try Self.setModificationTime(Self.old, of: stamp)
        let stale = try scenario.timeline.run(["show", "--sync-if-older", "5m"])
        #expect(stale.status == 0, "\(stale.errors)")
        #expect((Self.modificationTime(of: lock) ?? Self.old) > Self.old.addingTimeInterval(1), "no sync was started")
        #expect(Self.waitForStamp(newerThan: Date().addingTimeInterval(-60), at: stamp))
        #expect(try server.requests().count > requests)
    }

    /// A sync started less than two minutes ago (another terminal's) is left to run: ten
    /// terminals opened together start one.
    @Test func aSyncStartedMomentsAgoIsNotStartedAgain() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let lock = scenario.databasePath + ".sync-lock"
        let started = Date().addingTimeInterval(-30)
        #expect(FileManager.default.createFile(atPath: lock, contents: nil))
        try Self.setModificationTime(started, of: lock)
        let result = try scenario.timeline.run(["show", "--sync-if-older", "5m"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(Self.same(Self.modificationTime(of: lock), started))
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath + ".sync.log"))
    }

    /// Issue 37, rough edge 2, as it happened: the last sync that succeeded is 9 minutes old and
    /// a sync failed a minute ago (no network). A terminal then starts no sync (the pause after a
    /// failure, two minutes, which the user guide says in one sentence); the first terminal after
    /// the pause does; `accounts` says the success and the failed try apart ("last synced 4
    /// minutes ago" had counted the failed try).
    @Test func afterAFailedSyncTheFirstTerminalPastThePauseSyncsAndAccountsSaysTheTryApart() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        let stamp = scenario.databasePath + ".last-sync", lock = scenario.databasePath + ".sync-lock"
        let statusFile = scenario.databasePath + ".sync-status"
        #expect(try scenario.timeline.run(["sync"]).status == 0)
        let succeeded = Date().addingTimeInterval(-9 * 60)
        try Self.setModificationTime(succeeded, of: stamp)
        // The status file's success as 9 minutes ago too (its fourth field, seconds).
        let line = try String(contentsOfFile: statusFile, encoding: .utf8)
        var fields = line.trimmingCharacters(in: .newlines).components(separatedBy: "\t")
        fields[3] = String(Int(succeeded.timeIntervalSince1970))
        try (fields.joined(separator: "\t") + "\n").write(toFile: statusFile, atomically: true, encoding: .utf8)

        try server.control("faults", ["path": "/api/v1/timelines/home", "status": 503, "times": 20])
        #expect(try scenario.timeline.run(["sync"]).status != 0)
        try Self.setModificationTime(Date().addingTimeInterval(-60), of: lock)
        let accounts = try scenario.timeline.run(["accounts"]).output
        #expect(accounts.contains("last synced 9 minutes ago; the last try, just now, failed: "), "\(accounts)")

        // A minute after the failure: within the pause, nothing is started.
        let paused = Self.modificationTime(of: lock)
        #expect(try scenario.timeline.run(["show", "--sync-if-older", "5m"]).status == 0)
        #expect(Self.modificationTime(of: lock) == paused, "a sync was started within the pause after a failure")

        // Past the pause (the server answers again): the first terminal starts the sync.
        try server.control("faults", ["clear": true])
        let failedAt = Date().addingTimeInterval(-3 * 60)
        try Self.setModificationTime(failedAt, of: lock)
        #expect(try scenario.timeline.run(["show", "--sync-if-older", "5m"]).status == 0)
        #expect((Self.modificationTime(of: lock) ?? failedAt) > failedAt.addingTimeInterval(60), "no sync was started past the pause")
        #expect(Self.waitForStamp(newerThan: succeeded.addingTimeInterval(60), at: stamp))
    }

    /// Without an account nothing is started, and nothing is written beside the database.
    @Test func withoutAnAccountShowStartsNothing() throws {
        let scenario = Scenario()
        try scenario.importSample()
        scenario.timeline.environment["XDG_CONFIG_HOME"] = scenario.directory + "/config"
        let result = try scenario.timeline.run(["show", "--sync-if-older", "5m"])
        #expect(result.status == 0, "\(result.errors)")
        #expect(result.output.contains("Okay, closing the laptop."))
        for suffix in [".sync-lock", ".sync.log", ".last-sync"] {
            #expect(!FileManager.default.fileExists(atPath: scenario.databasePath + suffix), "\(suffix)")
        }
    }

    /// Plain `show` (scripts, people) never starts a sync, due or not.
    @Test func plainShowStartsNoSync() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        try scenario.importSample()
        let requests = try server.requests().count
        #expect(try scenario.timeline.run(["show"]).status == 0)
        #expect(!FileManager.default.fileExists(atPath: scenario.databasePath + ".sync-lock"))
        #expect(try server.requests().count == requests)
    }

    @Test func aBadAgeOrFollowIsAUsageErrorNamingTheOption() throws {
        let scenario = Scenario()
        for arguments in [["show", "--sync-if-older", "90s"], ["show", "--sync-if-older", "5m", "--follow"]] {
            let result = try scenario.timeline.run(arguments)
            #expect(result.status == 64, "\(arguments)")
            #expect(result.errors.contains("--sync-if-older"), "\(arguments): \(result.errors)")
        }
    }

    /// The sync a stale start leaves behind says it is the detached one and runs at a lower CPU
    /// priority than the shell that started it (nice +10), so that it does not take a core
    /// the shell needs on its way to the prompt (issue 28).
    @Test func theBackgroundSyncRunsDetachedAtALowerPriority() throws {
        let server = try MastodonTestServer()
        let scenario = try SyncCommandTests.loggedIn(to: server)
        // Its first request is held for 30 s, so that it is still running when looked at.
        _ = try server.control("faults", ["path": "/api/", "delay": 30, "times": 1])
        let result = try scenario.timeline.run(["show", "--sync-if-older", "5m"])
        #expect(result.status == 0, "\(result.errors)")
        let own = try #require(Self.niceness(of: "self"))
        // Looked at until it has lowered its priority, which it does first thing after exec.
        let child = try #require(Self.process(naming: scenario.databasePath, within: 20) { $0 == min(19, own + 10) },
                                 "no background sync found")
        defer { kill(child.pid, SIGKILL) }
        #expect(child.arguments.contains("--detached"), "\(child.arguments)")
        #expect(child.niceness == min(19, own + 10), "nice \(child.niceness) against this process's \(own)")
    }

    /// A `sync` process whose arguments include `argument`, looked for in /proc for at most
    /// `seconds` until its niceness is `settled`: its ID, arguments and niceness (the last seen).
    static func process(
        naming argument: String, within seconds: Double, settled: (Int) -> Bool
    ) -> (pid: pid_t, arguments: [String], niceness: Int)? {
        let deadline = Date().addingTimeInterval(seconds)
        var found: (pid: pid_t, arguments: [String], niceness: Int)?
        repeat {
            for entry in (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? [] {
                guard let pid = pid_t(entry), pid != getpid(),
                      let raw = FileManager.default.contents(atPath: "/proc/\(entry)/cmdline") else { continue }
                let arguments = raw.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
                guard arguments.contains(argument), arguments.contains("sync"), let niceness = niceness(of: entry) else { continue }
                found = (pid, arguments, niceness)
                if settled(niceness) { return found }
            }
            Thread.sleep(forTimeInterval: 0.01)
        } while Date() < deadline
        return found
    }

    /// Field 19 of /proc/PID/stat, the process's nice value.
    static func niceness(of pid: String) -> Int? {
        guard let data = FileManager.default.contents(atPath: "/proc/\(pid)/stat"),
              let text = String(data: data, encoding: .utf8), let close = text.lastIndex(of: ")") else { return nil }
        let fields = text[text.index(after: close)...].split(separator: " ")
        return fields.count > 16 ? Int(fields[16]) : nil
    }
}
