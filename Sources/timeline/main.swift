#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ArgumentParser

// `timeline show` is the launch path of every terminal: it skips ArgumentParser unless its
// arguments need it (help, errors), which saves the reflection's ~2 ms (`LaunchArguments`).
// A file-size limit (ulimit -f) must turn a snapshot write into an error the store reports and
// cleans up after, not a SIGXFSZ that kills the process halfway through.
signal(SIGXFSZ, SIG_IGN)

let arguments = CommandLine.arguments.dropFirst()
if let request = ShowRequest.parse(arguments) {
    // A global: what the runner built stays alive until `exit` (see `ShowRunner.Retained`).
    let runner = ShowRunner(request: request)
    exit(runner.run())
}
// A background sync started by a shell start yields the cores to that shell first.
BackgroundSyncStart.yieldIfDetached(arguments)
// `browse` opens as fast as `show`: its usual command lines skip ArgumentParser too, through the
// same reader. Every other command is read by ArgumentParser alone.
if arguments.first == "browse", let request = BrowseRequest.parse(arguments.dropFirst()) {
    exit(BrowseRunner(request: request).run())
}
// `init SHELL [--count N]` runs at a shell start when the hook's cached copy is missing (and at
// every start for the older `eval "$(timeline init bash)"` line): read by hand too.
if arguments.first == "init", let request = InitRequest.parse(arguments.dropFirst()) {
    exit(request.run())
}
// A mistyped command would otherwise read as an argument to `show`, the default command.
if let unknown = CommandSuggestion.unknownCommand(in: arguments) {
    Terminal.emitError(unknown + "\n")
    exit(ExitStatus.usage)
}
// ArgumentParser's `main()`, except that its messages go through `Terminal`, whose standard
// error is neutralised: a usage error quotes the argument it refuses, which a script may have
// taken from anywhere (`timeline show --$'\u202e'…`).
do {
    var command = try TimelineCommand.parse(commandLine: Array(arguments))
    try command.run()
} catch {
    let message = TimelineCommand.fullMessage(for: error)
    let code = TimelineCommand.exitCode(for: error)
    if !message.isEmpty {
        // Help and --version (a clean exit) go to standard output, as ArgumentParser sends them.
        if code == .success { Terminal.emit(message + "\n") } else { Terminal.emitError(message + "\n") }
    }
    exit(code.rawValue)
}
