import ArgumentParser
import TimelineKit

struct LoginCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        // The networks from the registry, never listed by hand: a network registered there is said here.
        abstract: "Log in to " + Account.Network.registered.compactMap(\.login?.phrase).joined(separator: " or to ") + ".",
        // Each network's paragraph and examples are its login's (``LoginMethod/help``).
        discussion: """
            The account (its token or session) is stored in $XDG_CONFIG_HOME/timeline/accounts.json \
            (~/.config/timeline/accounts.json), readable by you only; the timeline database is not \
            touched. Each network logs in its own way:
            """ + Account.Network.registered.compactMap { $0.login.map { "\n\n" + $0.help } }.joined())

    @Argument(help: ArgumentHelp("The network: " + Account.Network.registered.filter { $0.login != nil }.map(\.rawValue).joined(separator: " or ") + "."))
    var network: String

    @Argument(help: ArgumentHelp("Mastodon: the server's address, e.g. mastodon.social or https://mastodon.social. Bluesky: your handle, e.g. alice.bsky.social.", valueName: "server-url-or-handle"))
    var serverArgument: String?

    /// The second word; `validate` has made sure there is one.
    private var server: String { serverArgument ?? "" }

    @Option(name: .long, help: ArgumentHelp("Bluesky: the server to log in to (default https://bsky.social).", valueName: "url"))
    var service: String?

    @Flag(name: .customLong("app-password-stdin"), help: "Bluesky: read the app password from standard input.")
    var appPasswordStdin = false

    @Option(name: .long, help: ArgumentHelp("The account's name in timeline (default: user@server).", valueName: "name"))
    var name: String?

    @Flag(name: .long, help: "Replace another account that has this name (a login to the same account again replaces it without this).")
    var replace = false

    @Flag(name: .customLong("token-stdin"), help: "Read an access token from standard input instead of signing in in a browser.")
    var tokenStdin = false

    @Option(name: .customLong("token-command"), help: ArgumentHelp("A command that prints the access token; stored and run when needed.", valueName: "command"))
    var tokenCommand: String?

    /// The network the first word names; `validate` has made sure it names one.
    private var chosenNetwork: Account.Network? { Account.Network(rawValue: network) }

    func validate() throws {
        guard let chosen = chosenNetwork else {
            throw ValidationError(Self.unknownNetwork(network, server: serverArgument))
        }
        guard let login = chosen.login else { throw ValidationError(Self.noLogin(chosen)) }
        guard serverArgument != nil else {
            throw ValidationError(login.missingAddress)
        }
        // Each login method has its options; the other method's are refused in the network's words.
        let usesOtherMethodsOptions = switch login.kind {
        case .appPassword: tokenStdin || tokenCommand != nil
        case .browserAuthorization: appPasswordStdin || service != nil
        }
        if usesOtherMethodsOptions {
            throw ValidationError(login.otherMethodsOptions)
        }
        if let name, let problem = Account.nameProblem(name) {
            throw ValidationError("--name: \(problem).")
        }
        if tokenStdin && tokenCommand != nil {
            throw ValidationError("--token-stdin and --token-command are two ways to give a token; choose one.")
        }
    }

    func run() throws {
        let store = try reportingErrors { try AccountStore.standard() }
        guard let chosen = chosenNetwork else { throw ValidationError(Self.unknownNetwork(network, server: serverArgument)) }
        guard let method = chosen.login else { throw ValidationError(Self.noLogin(chosen)) }
        switch method.kind {
        case let .appPassword(login):
            try logIn(with: login, to: store)
        case let .browserAuthorization(authorization):
            let login = try reportingErrors { try authorization(server, CurlTransport()) }
            try logIn(with: login, to: store)
        }
    }

    /// Signs in in a browser, or verifies the token given instead, and stores the account.
    private func logIn(with login: some BrowserAuthorization, to store: AccountStore) throws {
        let account: Account
        if tokenStdin || tokenCommand != nil {
            let secret: Account.Secret = try tokenCommand.map { .command($0) } ?? .token(readToken())
            let token = try reportingErrors { try secret.token(account: name ?? login.server) }
            let verified = try reportingErrors { try waitFor { () throws(LoginError) in try await login.verifyCredentials(token) } }
            account = login.account(for: verified, named: name, client: nil, secret: secret)
        } else {
            account = try signInInBrowser(login)
        }
        let replaced = try reportingErrors { try store.save(account, replacing: replace) }
        // The name comes from the server's username: neutralised like everything a server says.
        Terminal.emit("Logged in to \(account.server) as @\(TerminalText.line(account.acct)) (account \(TerminalText.line(account.name))\(replaced == nil ? "" : ", replacing the earlier login of that name")).\n")
        Terminal.emit(Self.nextStep)
    }

    /// Opens a session with the app password and stores it; the password is not kept.
    private func logIn(with login: AppPasswordLogin, to store: AccountStore) throws(ExitCode) {
        let service = try reportingErrors { try ServerAddress(self.service ?? login.defaultService) }
        let handle = server.hasPrefix("@") ? String(server.dropFirst()) : server
        if StandardInput.isTerminal && !appPasswordStdin { Terminal.emitError("App password for \(TerminalText.line(handle)) (not shown): ") }
        guard StandardInput.isTerminal || appPasswordStdin, let line = StandardInput.readLine(hidden: true),
              case let password = String(line.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed()),
              !password.isEmpty else {
            Terminal.emitError("timeline: \(login.missingPassword)\n")
            throw ExitCode(ExitStatus.usage)
        }
        // A person waits at the keyboard: the login makes one attempt, so a server that cannot be
        // reached is said at once, not after four attempts and seven seconds of back-off.
        let account: Account
        do throws(ServerError) {
            account = try waitFor { [name] () async throws(ServerError) -> Account in
                try await login.logIn(service: service, identifier: handle, password: password, name: name, transport: CurlTransport())
            }
        } catch let .unreachable(transportError, _) {
            throw fail(transportError)
        } catch let .rejected(url, status, reason) where status == 401 {
            Terminal.emitError("timeline: \(ServerError.rejected(url: url, status: status, reason: reason))\n")
            Terminal.emitError(login.refusedPassword + "\n")
            throw ExitCode(ExitStatus.noPermission)
        } catch {
            throw fail(error)
        }
        let replaced = try reportingErrors { try store.save(account, replacing: replace) }
        Terminal.emit("Logged in to \(account.server) as @\(TerminalText.line(account.acct)) (account \(TerminalText.line(account.name))\(replaced == nil ? "" : ", replacing the earlier login of that name")).\n")
        Terminal.emit(Self.nextStep)
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
    private func signInInBrowser<Login: BrowserAuthorization>(_ login: Login) throws(ExitCode) -> Account {
        let pending = try reportingErrors { try waitFor { () throws(LoginError) in try await login.begin() } }
        Terminal.emitError("Open this page, approve timeline, and copy the code it shows:\n\n  \(pending.authorizationURL)\n\n")
        if Browser.openIfAtHand(pending.authorizationURL) { Terminal.emitError("(It was opened in your browser.)\n") }
        if StandardInput.isTerminal { Terminal.emitError("Code: ") }
        let code = StandardInput.readLine() ?? ""
        let token = try reportingErrors { try waitFor { () throws(LoginError) in try await login.exchange(code: code, for: pending) } }
        let verified = try reportingErrors { try waitFor { () throws(LoginError) in
            do throws(LoginError) {
                return try await login.verifyCredentials(token)
            } catch {
                // "Log in again" would loop: the same approval gives the same token.
                if case let .refused(server, status, message) = error { throw .issuedTokenRefused(server: server, status: status, message: message) }
                throw error
            }
        } }
        return login.account(for: verified, named: name, client: pending.client, secret: .token(token))
    }

    /// What a person does after logging in: the first sync, at once or by the shell hook.
    static let nextStep = "Next: `timeline sync` fetches your timeline (the shell hook of `timeline init` also syncs in the background at every new terminal).\n"

    /// What to say when the first word is a network whose accounts `login` does not make (an
    /// embedder's source: its own tool saves them).
    static func noLogin(_ network: Account.Network) -> String {
        "\(network.displayName) accounts are not logged in to with timeline login; " + "timeline logs in to " + Account.Network.loginList + "."
    }

    /// What to say when the first word is not a network: people type the server first
    /// (`timeline login mastodon.social`) or misspell the network (`timeline login mastodn x`).
    static func unknownNetwork(_ word: String, server: String?) -> String {
        let known = "timeline logs in to " + Account.Network.loginList
        if server == nil, word.contains(".") || word.hasPrefix("@") {
            let network = Account.Network.likely(forAddress: word).rawValue
            return "'\(word)' is not a network; did you mean: timeline login \(network) \(word)"
        }
        if let suggestion = CommandSuggestion.closest(to: word, among: Account.Network.registered.map(\.rawValue)) {
            return "\(known); did you mean: timeline login \(suggestion)\(server.map { " " + $0 } ?? "")"
        }
        return "\(known); '\(word)' is not one it knows."
    }
}
