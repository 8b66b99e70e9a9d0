/// What `timeline init SHELL` prints: the lines a shell's start-up file `eval`s (fish: `source`s)
/// to show the timeline in every new terminal.
///
/// Why a hook and not a bare `timeline show` in the start-up file: programs that start an
/// interactive shell only to read its environment (`bash -ic 'printenv PATH'`, editors, IDE
/// helpers) would get the whole timeline mixed into what they read, and zsh's powerlevel10k
/// "instant prompt" warns about any output while start-up files run. So the snippet prints
/// nothing while the start-up file is read: it registers a hook that runs once, just before
/// the first prompt, and only when that shell is interactive, its output is a terminal, and
/// `timeline` is still on `PATH` (uninstalling timeline never breaks a shell). The hook keeps
/// `$?` as it found it, for prompts that show the last status. The same hook starts
/// `timeline sync --if-older 5m --background` first: it returns at once (one `stat` when nothing
/// is due, nothing at all without an account), so the prompt never waits for the network, and
/// the next terminal shows what it fetched.
enum ShellSetup: String, CaseIterable {
    case bash
    case zsh
    case fish

    /// The snippet, ending with a newline. `count` fixes how many messages the hook shows;
    /// `nil` leaves it to `show` (what fits the window).
    func snippet(count: Int? = nil) -> String {
        let show = count.map { "command timeline show -n \($0)" } ?? "command timeline show"
        let snippet: String = switch self {
        case .bash:
            #"""
            # timeline: show the timeline once, before the first prompt of an interactive shell.
            # Added by: eval "$(timeline init bash)"
            if [[ $- == *i* ]]; then
              __timeline_first_prompt() {
                local status=$?
                if [[ -z ${__timeline_shown-} ]]; then
                  __timeline_shown=1
                  if [[ -t 1 ]] && command -v timeline >/dev/null 2>&1; then
                    command timeline sync --if-older 5m --background 2>/dev/null
                    \#(show)
                  fi
                fi
                return $status
              }
              PROMPT_COMMAND="__timeline_first_prompt${PROMPT_COMMAND:+;$PROMPT_COMMAND}"
            fi

            """#
        case .zsh:
            #"""
            # timeline: show the timeline once, before the first prompt of an interactive shell.
            # Added by: eval "$(timeline init zsh)" (with powerlevel10k, after the theme is loaded)
            if [[ -o interactive ]]; then
              __timeline_first_prompt() {
                local exit_status=$?
                add-zsh-hook -d precmd __timeline_first_prompt
                if [[ -t 1 ]] && (( ${+commands[timeline]} )); then
                  command timeline sync --if-older 5m --background 2>/dev/null
                  \#(show)
                fi
                return $exit_status
              }
              autoload -Uz add-zsh-hook
              add-zsh-hook precmd __timeline_first_prompt
            fi

            """#
        case .fish:
            #"""
            # timeline: show the timeline once, before the first prompt of an interactive shell.
            # Added by: timeline init fish | source
            if status is-interactive
                function __timeline_first_prompt --on-event fish_prompt
                    functions --erase __timeline_first_prompt
                    if isatty stdout; and command -q timeline
                        command timeline sync --if-older 5m --background 2>/dev/null
                        \#(show)
                    end
                end
            end

            """#
        }
        return snippet
    }
}
