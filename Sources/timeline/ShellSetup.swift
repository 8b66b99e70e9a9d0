/// What `timeline init SHELL` prints: the lines a shell's start-up file `eval`s (fish: `source`s)
/// to show the timeline in every new terminal, and the copy of them it keeps in the cache
/// directory, which the recommended start-up line sources without starting `timeline` at all.
///
/// Why a hook and not a bare `timeline show` in the start-up file: programs that start an
/// interactive shell only to read its environment (`bash -ic 'printenv PATH'`, editors, IDE
/// helpers) would get the whole timeline mixed into what they read, and zsh's powerlevel10k
/// "instant prompt" warns about any output while start-up files run. So the snippet prints
/// nothing while the start-up file is read: it registers a hook that runs once, just before
/// the first prompt, and only when that shell is interactive, its output is a terminal, and
/// `timeline` is still on `PATH` (uninstalling timeline never breaks a shell). The hook keeps
/// `$?` as it found it, for prompts that show the last status.
///
/// What a shell start costs (issue 28; tools/bench stage 14 measures it): the hook runs one
/// `timeline` process, `show --sync-if-older 5m`, which starts the background sync itself when
/// one is due (`BackgroundSyncStart`: one `stat` when nothing is due). `eval "$(timeline init
/// bash)"` would add a second process before the prompt at every start, so the start-up line
/// sources the cached copy (`cachedScript`) and runs `init` only when there is none:
///
///     source "${XDG_CACHE_HOME:-$HOME/.cache}/timeline/init.bash" 2>/dev/null || eval "$(timeline init bash)"
///
/// zsh asks `whence -p timeline`, not `${+commands[timeline]}`: reading the `commands` table
/// makes zsh hash every directory on PATH first (`getdents` of all of /usr/bin), which a first
/// prompt would wait for.
///
/// The cached copy names the binary that wrote it and is taken again from `timeline init` when
/// that binary is newer than the copy (an upgrade) or gone (moved, uninstalled): two `stat`s the
/// shell makes itself.
enum ShellSetup: String, CaseIterable {
    case bash
    case zsh
    case fish

    /// The snippet, ending with a newline. `count` fixes how many messages the hook shows;
    /// `nil` leaves it to `show` (what fits the window).
    func snippet(count: Int? = nil) -> String {
        let show = count.map { "command timeline show --sync-if-older 5m -n \($0)" } ?? "command timeline show --sync-if-older 5m"
        let snippet: String = switch self {
        case .bash:
            #"""
            # timeline: show the timeline once, before the first prompt of an interactive shell.
            # Added by: timeline init bash (the start-up line: timeline init --help)
            if [[ $- == *i* ]]; then
              __timeline_first_prompt() {
                local status=$?
                if [[ -z ${__timeline_shown-} ]]; then
                  __timeline_shown=1
                  if [[ -t 1 ]] && command -v timeline >/dev/null 2>&1; then
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
            # Added by: timeline init zsh (the start-up line: timeline init --help; with powerlevel10k, after the theme)
            if [[ -o interactive ]]; then
              __timeline_first_prompt() {
                local exit_status=$?
                add-zsh-hook -d precmd __timeline_first_prompt
                if [[ -t 1 ]] && whence -p timeline >/dev/null; then
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
            # Added by: timeline init fish (the start-up line: timeline init --help)
            if status is-interactive
                function __timeline_first_prompt --on-event fish_prompt
                    functions --erase __timeline_first_prompt
                    if isatty stdout; and command -q timeline
                        \#(show)
                    end
                end
            end

            """#
        }
        return snippet
    }

    /// The start-up file's line: the cached copy when there is one, `timeline init` otherwise
    /// (which writes the copy). The first time, and after the copy is removed, the line costs one
    /// `timeline init` more.
    func startupLine(count: Int? = nil) -> String {
        let initCommand = (["timeline", "init", rawValue] + (count.map { ["--count", String($0)] } ?? [])).joined(separator: " ")
        let file = Self.cacheFileName(shell: self, count: count)
        return switch self {
        case .bash, .zsh: #"source "${XDG_CACHE_HOME:-$HOME/.cache}/timeline/"# + file + #"" 2>/dev/null || eval "$("# + initCommand + #")""#
        case .fish: "source (set -q XDG_CACHE_HOME[1]; and echo $XDG_CACHE_HOME; or echo ~/.cache)/timeline/" + file + " 2>/dev/null; or " + initCommand + " | source"
        }
    }

    /// The cached copy's name in `$XDG_CACHE_HOME/timeline` (`~/.cache/timeline`): one per shell
    /// and count, since the start-up line names the one it sources.
    static func cacheFileName(shell: ShellSetup, count: Int?) -> String {
        (count.map { "init-count-\($0)." } ?? "init.") + shell.rawValue
    }

    /// The cached copy: the snippet, unless `binary` (the program that wrote it) is newer than
    /// `cachePath` or gone, in which case the snippet comes from `timeline init` again (which
    /// rewrites the copy), or from nowhere when `timeline` is no longer on PATH. It ends with a
    /// status of 0, so that the start-up line's `||` never runs `init` after a good copy. `nil`
    /// for a path the shell's quoting would not carry plainly (control characters).
    func cachedScript(count: Int? = nil, binary: String, cachePath: String) -> String? {
        guard let binaryWord = quoted(binary), let cacheWord = quoted(cachePath) else { return nil }
        let initCommand = (["command timeline init", rawValue] + (count.map { ["--count", String($0)] } ?? [])).joined(separator: " ")
        let header = """
            # timeline: the shell hook, kept by `timeline init \(rawValue)` so that a shell start runs no
            # `timeline` process before the first prompt; sourced by the start-up line
            #   \(startupLine(count: count))
            # Taken again from `timeline init` when the binary that wrote it changes or is gone.

            """
        switch self {
        case .bash, .zsh:
            return header + """
                if [[ \(binaryWord) -nt \(cacheWord) || ! -e \(binaryWord) ]]; then
                  if command -v timeline >/dev/null 2>&1; then eval "$(\(initCommand))"; fi
                else
                \(snippet(count: count))fi
                :

                """
        case .fish:
            return header + """
                if test \(binaryWord) -nt \(cacheWord); or not test -e \(binaryWord)
                    if command -q timeline
                        \(initCommand) | source
                    end
                else
                \(snippet(count: count))end
                true

                """
        }
    }

    /// `text` as one single-quoted word of this shell, or `nil` when it holds control characters.
    private func quoted(_ text: String) -> String? {
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return nil }
        return switch self {
        case .bash, .zsh: "'" + text.split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"'\''"#) + "'"
        case .fish:
            "'" + text.split(separator: "\\", omittingEmptySubsequences: false).joined(separator: #"\\"#)
                .split(separator: "'", omittingEmptySubsequences: false).joined(separator: #"\'"#) + "'"
        }
    }
}
