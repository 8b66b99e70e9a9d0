import ArgumentParser
import TimelineKit

struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Log in to a Mastodon account (Mastodon, Pleroma, Akkoma, GoToSocial, …).",
        discussion: """
            Registers timeline with the server, prints a page to open (and opens it when a browser \
            is at hand), and reads back the code the server shows once you approve. The token is \
            stored in $XDG_CONFIG_HOME/timeline/accounts.json (~/.config/timeline/accounts.json), \
            readable by you only; the timeline database is not touched.

            --token-stdin reads an access token instead (create one in the server's settings, \
            Preferences → Development, with the scopes read:accounts read:statuses \
            read:notifications write:statuses); --token-command stores a command that prints it \
            (a password manager), run whenever the token is needed.

            Examples:
              timeline login mastodon mastodon.social
              pass show mastodon/token | timeline login mastodon https://example.social --token-stdin
              timeline login mastodon example.social --token-command 'pass show mastodon/token'
            """)

    @Argument(help: "The kind of server: mastodon (any server speaking the Mastodon API).")
    var network: String

    @Argument(help: ArgumentHelp("The server's address, e.g. mastodon.social or https://mastodon.social.", valueName: "server-url"))
    var server: String

    @Option(name: .long, help: ArgumentHelp("The account's name in timeline (default: user@server).", valueName: "name"))
    var name: String?

    @Flag(name: .customLong("token-stdin"), help: "Read an access token from standard input instead of signing in in a browser.")
    var tokenStdin = false

    @Option(name: .customLong("token-command"), help: ArgumentHelp("A command that prints the access token; stored and run when needed.", valueName: "command"))
    var tokenCommand: String?

    func validate() throws {
        guard network == "mastodon" else {
            throw ValidationError("timeline logs in to mastodon servers (Mastodon and servers speaking its API); '\(network)' is not one it knows.")
        }
        if let name, name.isEmpty || name.contains(where: \.isWhitespace) {
            throw ValidationError("--name must be non-empty, without spaces.")
        }
        if tokenStdin && tokenCommand != nil {
            throw ValidationError("--token-stdin and --token-command are two ways to give a token; choose one.")
        }
    }

    func run() throws {
        let store = try reportingErrors { try AccountStore.standard() }
        let login = try reportingErrors { try MastodonAuthorization(server: server, transport: CurlTransport()) }
        let account: Account
        if tokenStdin || tokenCommand != nil {
            let secret: Account.Secret = try tokenCommand.map { .command($0) } ?? .token(readToken())
            let token = try reportingErrors { try secret.token(account: name ?? login.server) }
            let verified = try reportingErrors { try waitFor { () throws(LoginError) in try await login.verifyCredentials(token) } }
            account = login.account(for: verified, named: name, client: nil, secret: secret)
        } else {
            account = try signInInBrowser(login)
        }
        let replaced = try reportingErrors { try store.save(account) }
        Terminal.emit("Logged in to \(account.server) as @\(TerminalText.line(account.acct)) (account \(account.name)\(replaced == nil ? "" : ", replacing the earlier login of that name")).\n")
    }

    private func readToken() throws(ExitCode) -> AccessToken {
        if StandardInput.isTerminal { Terminal.emitError("Access token (not shown): ") }
        guard let line = StandardInput.readLine(hidden: true), let token = AccessToken(reading: line) else {
            Terminal.emitError("timeline: --token-stdin found no access token on standard input (one line, no spaces).\n")
            throw ExitCode(ExitStatus.usage)
        }
        return token
    }

    /// The out-of-band flow: the person approves in a browser and types the code back.
    private func signInInBrowser(_ login: MastodonAuthorization) throws(ExitCode) -> Account {
        let pending = try reportingErrors { try waitFor { () throws(LoginError) in try await login.begin() } }
        Terminal.emitError("Open this page, approve timeline, and copy the code it shows:\n\n  \(pending.authorizationURL)\n\n")
        if Browser.openIfAtHand(pending.authorizationURL) { Terminal.emitError("(It was opened in your browser.)\n") }
        if StandardInput.isTerminal { Terminal.emitError("Code: ") }
        let code = StandardInput.readLine() ?? ""
        let token = try reportingErrors { try waitFor { () throws(LoginError) in try await login.exchange(code: code, for: pending) } }
        let verified = try reportingErrors { try waitFor { () throws(LoginError) in try await login.verifyCredentials(token) } }
        return login.account(for: verified, named: name, client: pending.client, secret: .token(token))
    }
}
