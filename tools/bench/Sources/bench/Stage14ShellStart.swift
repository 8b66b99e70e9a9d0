import CBenchSupport
import Foundation

/// 14. What the shell hook costs a new terminal (issue 28, finding 1): the time to the first
/// prompt of an interactive bash, zsh and fish, without the hook, with it, and with zoxide's
/// `init` in its place, whole shells measured side by side in one run.
///
/// "First prompt" is what a person waits for: from `posix_spawn` of `SHELL -i` on an 80x40 pty
/// that is its controlling terminal (as a terminal emulator starts it) to the moment its prompt
/// arrives on the terminal. Each start-up file sets a prompt that no program prints otherwise
/// (`TLPROMPT> `), and the bench waits for those bytes (`bench_pty_until`), then types `exit`.
/// The hook's `show` runs before that prompt (bash's PROMPT_COMMAND, zsh's precmd, fish's
/// `fish_prompt` event), so its paint is inside the figure, and so is everything the shell
/// reads at start (the system's start-up files too, alike for every variant). A background
/// sync is inside it only as far as it takes the CPU from the shell before the prompt: the
/// bench waits for it to end after each run (the stamp it leaves), so that no run's sync
/// overlaps the next run.
///
/// Variants, per shell: no hook; zoxide's `eval "$(zoxide init SHELL)"` (when zoxide is
/// installed: `make bench` installs Debian's); this binary's start-up line (the cached copy of
/// `init`, `ShellSetup.startupLine`) with no account, an account synced a moment ago (fresh)
/// and one synced an hour ago (stale: each run finds the sync due and starts it); the older
/// `eval "$(timeline init SHELL)"` line, fresh; and with `--baseline REV`, REV's hook as its
/// `init` printed it, in the same three cases (through the cached start-up line when REV's hook
/// runs `show --sync-if-older` already, so that only the binaries differ). Each variant has a home of its own (start-up
/// files, accounts, a database imported from `Fixtures/sample-timeline.jsonl` by that binary);
/// the accounts sync from the loopback Mastodon server. Beside them, `show` alone as the hook
/// runs it, on the same pty: the goal is that the hook adds at most `show`'s own time + 1 ms.
/// Each run is checked: a fresh run must start no sync, a stale one must (the stamp moves).
func stageShellStart(_ config: Config, _ data: DataSets, _ report: Report) throws {
    let runs = config.runs, warmups = config.warmups
    report.begin("14. Shell start: time to first prompt of interactive bash, zsh and fish, \(Runner.columns)x\(Runner.rows) pty (median of \(runs) runs after \(warmups) warm-ups, all variants interleaved)")
    let shells = ["bash", "zsh", "fish"]
    for shell in shells where !FileManager.default.isExecutableFile(atPath: "/usr/bin/" + shell) {
        throw BenchError("/usr/bin/\(shell) is missing: `make bench` installs bash, zsh and fish")
    }
    let zoxide = ["/usr/bin/zoxide", "/usr/local/bin/zoxide"].first { FileManager.default.isExecutableFile(atPath: $0) }
    let root = try freshDirectory(data.directory + "/work/shell-start")
    let server = try LoopbackServer(statuses: 200)
    // Every stale run syncs (three or four requests): a run of this stage sends about 700, past
    // the 300 in 5 minutes the server allows by default, as Mastodon does.
    try server.control("settings", "{\"rate_limit\": 1000000}")

    var variants: [ShellStartVariant] = [
        try ShellStartVariant(name: "none", label: "no hook", root: root, binary: nil, hook: .none, account: .none, server: server),
    ]
    if let zoxide {
        variants.append(try ShellStartVariant(name: "zoxide", label: "zoxide init", root: root, binary: zoxide, hook: .zoxide, account: .none, server: server))
    }
    var binaries = [("after", config.timeline)]
    if let baseline = config.baseline { binaries.append(("before", baseline)) }
    for (name, binary) in binaries {
        // A baseline whose hook already runs `show --sync-if-older` (main since 2180c4e) is
        // started by the same cached line, so that before/after compares the binaries alone.
        let baselineHook = try Runner.capture([binary, "init", "bash"]).output.contains("--sync-if-older")
        let hook: ShellStartVariant.Hook = name == "after" || baselineHook ? .startupLine : .evalLine
        for account in [ShellStartVariant.Account.none, .fresh, .stale] {
            variants.append(try ShellStartVariant(name: "\(name)_\(account)", label: "hook \(name), \(account.label)", root: root,
                                                  binary: binary, hook: hook, account: account, server: server))
        }
        if name == "after" {
            variants.append(try ShellStartVariant(name: "after_eval_fresh", label: "hook after, older eval line, account fresh", root: root,
                                                  binary: binary, hook: .evalLine, account: .fresh, server: server))
        }
    }
    // `show` alone, as the hook runs it, in the homes of this binary's hook.
    let showAlone = variants.filter { $0.hook == .startupLine }

    var times: [String: [Double]] = [:]
    for round in 0 ..< warmups + runs {
        for shell in shells {
            for variant in variants {
                let result = try variant.run(shell: shell, report: report)
                if round >= warmups { times["\(shell).\(variant.name)", default: []].append(result) }
            }
        }
        for variant in showAlone {
            let result = try variant.runShowAlone(report: report)
            if round >= warmups { times["show.\(variant.name)", default: []].append(result) }
        }
    }

    for shell in shells {
        let none = Summary(times["\(shell).none"]!)
        report.time("shell_start.\(shell).none", "\(shell): no hook", none)
        for variant in variants.dropFirst() {
            let summary = Summary(times["\(shell).\(variant.name)"]!)
            let added = summary.median - none.median
            report.time("shell_start.\(shell).\(variant.name)", "\(shell): \(variant.label)", summary,
                        note: String(format: "+%.2f ms, %@ of no hook", added, fmtRatio(summary.median / none.median)))
        }
    }
    for variant in showAlone {
        let show = Summary(times["show.\(variant.name)"]!)
        report.time("shell_start.show_alone.\(variant.account)", "`show --sync-if-older 5m` alone, \(variant.account.label)", show, note: "spawn to exit, same pty")
    }
    for shell in shells {
        let none = Summary(times["\(shell).none"]!).median
        if zoxide != nil {
            let zoxideAdded = Summary(times["\(shell).zoxide"]!).median - none
            let ours = Summary(times["\(shell).after_fresh"]!).median - none
            report.ratio("shell_start.\(shell).ratio_hook_over_zoxide", "\(shell): what the hook adds (fresh) / what zoxide's init adds", ours / zoxideAdded,
                         note: String(format: "+%.2f ms vs +%.2f ms", ours, zoxideAdded))
        }
        for variant in showAlone {
            let added = Summary(times["\(shell).\(variant.name)"]!).median - none
            let show = Summary(times["show.\(variant.name)"]!).median
            report.goal("shell_start_\(shell)_\(variant.account)", "\(shell), \(variant.account.label): the hook adds at most show's own time + 1 ms",
                        target: "<= show + 1 ms", measured: String(format: "+%.2f ms (show alone %.2f ms)", added, show), met: added <= show + 1)
        }
        if config.baseline != nil {
            for account in ["no_account", "fresh", "stale"] {
                let before = Summary(times["\(shell).before_\(account)"]!).median - none
                let after = Summary(times["\(shell).after_\(account)"]!).median - none
                report.ratio("shell_start.\(shell).ratio_added_after_over_before_\(account)", "\(shell), \(account): what the hook adds, after / before", after / before,
                             note: String(format: "+%.2f ms vs +%.2f ms", after, before))
            }
        }
    }
    if zoxide == nil { report.note("zoxide is not installed (`make bench` installs Debian's): no zoxide row") }
    try foregroundInstructions(config, variants: variants, report: report)
    report.end()
}

/// Instructions (callgrind) of what runs in the foreground at a shell start: this binary's
/// `show --sync-if-older 5m` with nothing due beside its plain `show`, and `init` (read by hand
/// now: it runs when the cached copy is missing, or at every start with the older line); with a
/// baseline, its three processes (`init bash`, `sync --if-older 5m --background`, `show`).
/// Not on a terminal (callgrind's output is a pipe): `show` prints once, as stage 12 measures it.
private func foregroundInstructions(_ config: Config, variants: [ShellStartVariant], report: Report) throws {
    var commands: [(key: String, label: String, variant: ShellStartVariant, arguments: [String])] = []
    if let after = variants.first(where: { $0.name == "after_fresh" }), let binary = after.binary {
        commands += [("after_show_hook", "this binary: show --sync-if-older 5m (account, fresh)", after, [binary, "show", "--sync-if-older", "5m"]),
                     ("after_show", "this binary: show", after, [binary, "show"]),
                     ("after_init", "this binary: init bash", after, [binary, "init", "bash"])]
    }
    if let before = variants.first(where: { $0.name == "before_fresh" }), let binary = before.binary {
        commands += [("before_init", "baseline: init bash", before, [binary, "init", "bash"]),
                     ("before_sync", "baseline: sync --if-older 5m --background (fresh)", before, [binary, "sync", "--if-older", "5m", "--background"]),
                     ("before_show", "baseline: show", before, [binary, "show"])]
    }
    var counts: [String: Double] = [:]
    let saved = Runner.env
    defer { Runner.env = saved }
    for command in commands {
        Runner.env = command.variant.environment
        try command.variant.prepare()
        let samples = try (0 ..< (config.smoke ? 1 : 3)).compactMap { _ in try instructions(command.arguments) }
        guard !samples.isEmpty else {
            report.note("valgrind is not installed: no instruction counts")
            return
        }
        let median = Summary(samples).median
        counts[command.key] = median
        report.value("shell_start.instructions.\(command.key)", command.label, fmtCount(median), raw: median, unit: "instructions")
        if !command.variant.checkNoSyncStarted() { report.fail("shell start: \(command.label) started a sync with nothing due") }
    }
    if let hook = counts["after_show_hook"], let show = counts["after_show"] {
        report.goal("shell_start_show_hook_instructions", "show --sync-if-older 5m, nothing due, within noise of plain show", target: "<= +0.5%",
                    measured: String(format: "%+.2f%% (%@ vs %@)", (hook / show - 1) * 100, fmtCount(hook), fmtCount(show)), met: hook <= show * 1.005)
    }
    if let hook = counts["after_show_hook"], let show = counts["before_show"] {
        report.ratio("shell_start.ratio_show_hook_over_baseline_show", "show --sync-if-older 5m (this binary) / show (baseline), instructions", hook / show)
    }
    if let before = ["before_init", "before_sync", "before_show"].map({ counts[$0] }).reduce(Optional(0.0), { sum, count in sum.flatMap { s in count.map { s + $0 } } }),
       let after = counts["after_show_hook"] {
        report.ratio("shell_start.ratio_foreground_instructions_after_over_before", "foreground instructions of a shell start (cached hook), after / before", after / before,
                     note: "\(fmtCount(after)) vs \(fmtCount(before)) (init + sync --background + show)")
    }
}

/// One way a shell can start: its home (start-up files of the three shells, accounts, database)
/// and what each run checks.
struct ShellStartVariant {
    enum Hook { case none, zoxide, startupLine, evalLine }
    enum Account: CustomStringConvertible {
        case none, fresh, stale
        var description: String { switch self { case .none: "no_account"; case .fresh: "fresh"; case .stale: "stale" } }
        var label: String { switch self { case .none: "no account"; case .fresh: "account fresh"; case .stale: "account stale (sync due)" } }
    }

    static let marker = "TLPROMPT> "

    let name: String
    let label: String
    let home: String
    let binary: String?
    let hook: Hook
    let account: Account
    let environment: [String]
    var database: String { home + "/.local/share/timeline/timeline.sqlite" }
    var stamp: String { database + ".last-sync" }
    var lock: String { database + ".sync-lock" }

    init(name: String, label: String, root: String, binary: String?, hook: Hook, account: Account, server: LoopbackServer) throws {
        self.name = name
        self.label = label
        self.binary = binary
        self.hook = hook
        self.account = account
        home = try freshDirectory(root + "/" + name)
        let bin = home + "/bin"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        if let binary, hook != .zoxide {
            try FileManager.default.createSymbolicLink(atPath: bin + "/timeline", withDestinationPath: binary)
        }
        environment = ["TERM=xterm-256color", "HOME=\(home)", "PATH=\(bin):/usr/bin:/bin", "LANG=C.UTF-8"]
        try writeStartupFiles()
        guard let binary, hook != .zoxide else { return }
        let saved = Runner.env
        Runner.env = environment
        defer { Runner.env = saved }
        let imported = try Runner.capture([binary, "import", repositoryRoot() + "/Fixtures/sample-timeline.jsonl"])
        guard imported.status == 0 else { throw BenchError("\(name): import failed: \(imported.errors)") }
        _ = try Runner.capture([binary, "show"])
        if account != .none {
            let login = try Runner.capture(["/bin/sh", "-c", "printf '%s\\n' loopback-test-token-0123456789abcdef | \"$0\" login mastodon \"$1\" --token-stdin",
                                            binary, server.baseURL])
            guard login.status == 0 else { throw BenchError("\(name): login failed: \(login.errors)") }
            let sync = try Runner.capture([binary, "sync"])
            guard sync.status == 0 else { throw BenchError("\(name): first sync failed: \(sync.errors)") }
        }
    }

    private func writeStartupFiles() throws {
        let manager = FileManager.default
        try manager.createDirectory(atPath: home + "/.config/fish", withIntermediateDirectories: true)
        // An interactive fish whose home has no generated_completions starts python3 in the
        // background to parse every man page (fish_update_completions, about 30 s of CPU,
        // strace): in each new home, during the warm-ups and the timed runs of every shell.
        // A person's fish did that once, long ago; the directory says it is done.
        try manager.createDirectory(atPath: home + "/.local/share/fish/generated_completions", withIntermediateDirectories: true)
        func line(_ shell: String) -> String {
            switch hook {
            case .none: return ""
            case .zoxide: return shell == "fish" ? "\(binary!) init fish | source\n" : "eval \"$(\(binary!) init \(shell))\"\n"
            case .evalLine: return shell == "fish" ? "timeline init fish | source\n" : "eval \"$(timeline init \(shell))\"\n"
            case .startupLine:
                // The line `timeline init --help` gives (ShellSetup.startupLine).
                return shell == "fish"
                    ? "source (set -q XDG_CACHE_HOME[1]; and echo $XDG_CACHE_HOME; or echo ~/.cache)/timeline/init.fish 2>/dev/null; or timeline init fish | source\n"
                    : "source \"${XDG_CACHE_HOME:-$HOME/.cache}/timeline/init.\(shell)\" 2>/dev/null || eval \"$(timeline init \(shell))\"\n"
            }
        }
        try (line("bash") + "PS1='\(Self.marker)'\n").write(toFile: home + "/.bashrc", atomically: true, encoding: .utf8)
        try (line("zsh") + "PROMPT='\(Self.marker)'\n").write(toFile: home + "/.zshrc", atomically: true, encoding: .utf8)
        try ("set -g fish_greeting\n" + line("fish") + "function fish_prompt\n    printf '%s' '\(Self.marker)'\nend\n")
            .write(toFile: home + "/.config/fish/config.fish", atomically: true, encoding: .utf8)
    }

    /// Sets the stamp and the lock for this variant's case (untimed): fresh, a sync that ended
    /// now; stale, one an hour ago; the lock an hour old either way, so that no "sync started
    /// moments ago" hides a due sync.
    func prepare() throws {
        guard account != .none else { return }
        let now = Date()
        let hourAgo = now.addingTimeInterval(-3600)
        if !FileManager.default.fileExists(atPath: lock) { _ = FileManager.default.createFile(atPath: lock, contents: nil) }
        try FileManager.default.setAttributes([.modificationDate: hourAgo], ofItemAtPath: lock)
        try FileManager.default.setAttributes([.modificationDate: account == .fresh ? now : hourAgo], ofItemAtPath: stamp)
    }

    func checkNoSyncStarted() -> Bool {
        guard account != .none else { return !FileManager.default.fileExists(atPath: lock) }
        let lockTime = (try? FileManager.default.attributesOfItem(atPath: lock)[.modificationDate] as? Date) ?? .distantFuture
        return lockTime < Date().addingTimeInterval(-3000)
    }

    /// After a stale run: the sync it started ended (the stamp moved), or the run fails.
    private func awaitSync(startedAfter start: Date, what: String, report: Report) {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            if let time = try? FileManager.default.attributesOfItem(atPath: stamp)[.modificationDate] as? Date, time >= start.addingTimeInterval(-1) { return }
            usleep(5_000)
        }
        report.fail("shell start: \(what), \(label): no sync ended within 20 s of a start when one was due")
    }

    private func check(after start: Date, what: String, report: Report) {
        switch account {
        case .stale: awaitSync(startedAfter: start, what: what, report: report)
        case .fresh, .none:
            if binary != nil, hook != .zoxide, !checkNoSyncStarted() { report.fail("shell start: \(what), \(label): a sync was started with nothing due") }
        }
    }

    /// One start of `shell -i` to its first prompt, in ms.
    func run(shell: String, report: Report) throws -> Double {
        try prepare()
        let start = Date()
        let result = untilPrompt(["/usr/bin/" + shell, "-i"], quit: "exit\n")
        guard result.status == 0, result.wallMs > 0 else {
            throw BenchError("\(shell) (\(label)) did not reach its prompt (status \(result.status)); its home: \(home)")
        }
        check(after: start, what: shell, report: report)
        return result.wallMs
    }

    /// `show --sync-if-older 5m` alone on the pty, spawn to exit, in ms.
    func runShowAlone(report: Report) throws -> Double {
        try prepare()
        let start = Date()
        let result = ptyRun([binary!, "show", "--sync-if-older", "5m"])
        guard result.status == 0 else { throw BenchError("show alone (\(label)) exited with \(result.status)") }
        check(after: start, what: "show alone", report: report)
        return result.wallMs
    }

    private func withC<T>(_ arguments: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>, UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T) -> T {
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = environment.map { strdup($0) } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        return argv.withUnsafeBufferPointer { a in envp.withUnsafeBufferPointer { e in body(a.baseAddress!, e.baseAddress!) } }
    }

    private func untilPrompt(_ arguments: [String], quit: String) -> RunResult {
        var result = bench_run_result()
        let marker = Array(Self.marker.utf8), quitBytes = Array(quit.utf8)
        let rc = withC(arguments) { argv, envp in
            marker.withUnsafeBufferPointer { m in
                quitBytes.withUnsafeBufferPointer { q in
                    m.withMemoryRebound(to: CChar.self) { m in
                        q.withMemoryRebound(to: CChar.self) { q in
                            bench_pty_until(argv, envp, Runner.columns, Runner.rows, m.baseAddress, m.count, q.baseAddress, q.count, &result)
                        }
                    }
                }
            }
        }
        if rc != 0 { fatalError("could not run \(arguments.joined(separator: " ")): \(String(cString: strerror(errno)))") }
        // A run killed at the 10 s limit never saw its prompt.
        return RunResult(wallMs: result.status == -9 ? 0 : Double(result.wall_ns) / 1e6, maxRSSKiB: result.maxrss_kib, status: result.status, bytes: Int(result.bytes))
    }

    private func ptyRun(_ arguments: [String]) -> RunResult {
        var result = bench_run_result()
        let rc = withC(arguments) { argv, envp in bench_pty_run(argv, envp, Runner.columns, Runner.rows, -1, &result) }
        if rc != 0 { fatalError("could not run \(arguments.joined(separator: " ")): \(String(cString: strerror(errno)))") }
        return RunResult(wallMs: Double(result.wall_ns) / 1e6, maxRSSKiB: result.maxrss_kib, status: result.status, bytes: Int(result.bytes))
    }
}
