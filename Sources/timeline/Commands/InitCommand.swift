import ArgumentParser
import TimelineKit

extension ShellSetup: ExpressibleByArgument {}

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Print the shell set-up that shows the timeline in every new terminal.",
        discussion: """
            Add one line to your shell's start-up file (the same line works with --count N; \
            shown here broken with a backslash, which every shell joins again):
              bash (~/.bashrc):
            \(HelpExample.wrapped(ShellSetup.bash.startupLine(), indent: "    "))
              zsh (~/.zshrc):
            \(HelpExample.wrapped(ShellSetup.zsh.startupLine(), indent: "    "))
              fish (~/.config/fish/config.fish):
            \(HelpExample.wrapped(ShellSetup.fish.startupLine(), indent: "    "))

            `init` prints the snippet and keeps a copy of it in $XDG_CACHE_HOME/timeline \
            (~/.cache/timeline), which the line sources: a new terminal then runs one `timeline` \
            process, the `show` just before the first prompt, and none while the start-up file is \
            read. The copy is taken again from `timeline init` when the binary that wrote it is \
            upgraded or gone. The older line, eval "$(timeline init bash)", works too, at the cost \
            of one `init` at every start.

            The timeline is shown once, just before the first prompt, and only in an interactive \
            shell whose output is a terminal: programs that run `bash -ic` to read the environment \
            see nothing, and zsh's instant prompts see no output during start-up. If `timeline` is \
            no longer on PATH, the shell starts as if the line were not there. That `show` also \
            starts `timeline sync` in the background when the last sync is 5 minutes old and you \
            have an account (`show --sync-if-older 5m`): the prompt never waits for the network.

            --count N shows N messages at every new terminal instead of what fits the window:
            \(HelpExample.wrapped(ShellSetup.bash.startupLine(count: 5)))
            """)

    @Argument(help: ArgumentHelp("The shell: bash, zsh or fish."))
    var shell: ShellSetup

    @Option(name: .long, help: ArgumentHelp("How many messages each new terminal shows (default: what fits the window).", valueName: "n"))
    var count: Int?

    func validate() throws {
        if let count, !InitRequest.counts.contains(count) {
            throw ValidationError("--count: give a number of messages from 1 to 1000.")
        }
    }

    func run() throws {
        let status = InitRequest(shell: shell, count: count).run()
        if status != ExitStatus.success { throw ExitCode(status) }
    }
}
