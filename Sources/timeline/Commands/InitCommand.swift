import ArgumentParser
import TimelineKit

extension ShellSetup: ExpressibleByArgument {}

struct InitCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "init",
        abstract: "Print the shell set-up that shows the timeline in every new terminal.",
        discussion: """
            Add one line to your shell's start-up file:
              bash (~/.bashrc):  eval "$(timeline init bash)"
              zsh  (~/.zshrc):   eval "$(timeline init zsh)"
              fish (~/.config/fish/config.fish):  timeline init fish | source

            The timeline is shown once, just before the first prompt, and only in an interactive \
            shell whose output is a terminal: programs that run `bash -ic` to read the environment \
            see nothing, and zsh's instant prompts see no output during start-up. If `timeline` is \
            no longer on PATH, the shell starts as if the line were not there.

            --count N shows N messages at every new terminal instead of what fits the window:
              eval "$(timeline init bash --count 5)"
            """)

    @Argument(help: ArgumentHelp("The shell: bash, zsh or fish."))
    var shell: ShellSetup

    @Option(name: .long, help: ArgumentHelp("How many messages each new terminal shows (default: what fits the window).", valueName: "n"))
    var count: Int?

    func validate() throws {
        if let count, !(1 ... 1_000).contains(count) {
            throw ValidationError("--count: give a number of messages from 1 to 1000.")
        }
    }

    func run() throws {
        Terminal.emit(shell.snippet(count: count))
    }
}
