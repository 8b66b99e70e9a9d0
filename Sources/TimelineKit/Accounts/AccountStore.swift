#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The accounts file, `accounts.json` in timeline's configuration directory
/// (`$XDG_CONFIG_HOME/timeline/`, else `~/.config/timeline/`): every account `timeline login`
/// stored, with its token or the `token_command` that prints it.
///
/// The directory is created 0700 and the file 0600. A file that other users can read or change
/// (any permission bit for group or others), or that another user owns, is refused with an
/// ``AccountError`` that says `chmod 600 FILE`, as ssh refuses a private key: it holds tokens.
/// Writes take a lock (`accounts.json.lock`), write a temporary file, flush it and rename it over
/// the old one, so two logins at once both land and a crash never leaves half a file.
///
/// The accounts file is separate from the timeline database: logging in creates no database.
///
/// ```swift
/// let store = try AccountStore.standard()
/// for credentials in try store.credentials(named: nil) {      // every account
///     print(credentials.name, credentials.server)             // the token stays in credentials.token
/// }
/// ```
///
/// The format (JSON, version 1), for people who edit it by hand, e.g. to keep the token in a
/// password manager (replace `"token"` with `"token_command"`):
///
/// ```json
/// {
///   "version": 1,
///   "accounts": [
///     {
///       "name": "alice@mastodon.social",
///       "network": "mastodon",
///       "server": "https://mastodon.social",
///       "account_id": "109302",
///       "acct": "alice",
///       "client_id": "…",
///       "client_secret": "…",
///       "token_command": "pass show mastodon/alice"
///     }
///   ]
/// }
/// ```
public struct AccountStore: Sendable {
    /// The configuration directory holding the file.
    public let directory: String

    /// The accounts file.
    public var path: String { directory + "/accounts.json" }

    /// The format version this timeline writes and reads.
    public static let formatVersion = 1

    /// A file larger than this is not an accounts file.
    private static let sizeLimit = 1 << 20

    /// The store in `directory` (created when an account is first saved).
    public init(directory: String) {
        self.directory = directory
    }

    /// The standard store: `$XDG_CONFIG_HOME/timeline` when that is an absolute path (the XDG
    /// specification says to ignore a relative one), else `$HOME/.config/timeline`. The home
    /// directory comes from `$HOME`, never from the password database.
    public static func standard(
        environment: (String) -> String? = { name in getenv(name).map { String(cString: $0) } }
    ) throws(AccountError) -> AccountStore {
        if let configuration = environment("XDG_CONFIG_HOME"), configuration.hasPrefix("/") {
            return AccountStore(directory: configuration + "/timeline")
        }
        guard let home = environment("HOME"), !home.isEmpty else { throw .noConfigurationDirectory }
        return AccountStore(directory: home + "/.config/timeline")
    }

    /// Whether an accounts file exists: one `lstat`, for shell start-up, which must not read and
    /// check the file when nobody ever logged in.
    public var hasAccountsFile: Bool { FileSystem.kind(at: path) != .missing }

    /// Every account, in the order they were first stored. No file yet: none.
    public func accounts() throws(AccountError) -> [Account] {
        try load().accounts
    }

    /// The account named `name`.
    public func account(named name: String) throws(AccountError) -> Account {
        let all = try accounts()
        guard let account = all.first(where: { $0.name == name }) else {
            throw .unknownAccount(name: name, known: all.map(\.name))
        }
        return account
    }

    /// The accounts to work with, each with its token (running `token_command`s): the one named
    /// `name`, or every account when `name` is `nil`. This is what `sync` and `post` start from.
    public func credentials(named name: String?) throws(AccountError) -> [AccountCredentials] {
        let chosen = if let name { [try account(named: name)] } else { try accounts() }
        var result: [AccountCredentials] = []
        for account in chosen {
            result.append(AccountCredentials(account: account, token: try account.accessToken()))
        }
        return result
    }

    /// Stores `account`, replacing the one with the same name when it is the same account
    /// (a login again) or when `replacing` says the person means it. Returns the replaced
    /// account. An unreadable entry of that name is replaced.
    ///
    /// - Throws: `.invalidName` when the name breaks the rules (``Account/nameProblem(_:)``),
    ///   `.nameTaken` when another account has it and `replacing` is false.
    @discardableResult
    public func save(_ account: Account, replacing: Bool = false) throws(AccountError) -> Account? {
        if let problem = Account.nameProblem(account.name) { throw .invalidName(name: account.name, reason: problem) }
        return try update { file throws(AccountError) in
            file.unreadable.removeAll { $0.entry.name == account.name }
            if let index = file.accounts.firstIndex(where: { $0.name == account.name }) {
                let previous = file.accounts[index]
                guard replacing || previous.isSameAccount(as: account) else {
                    throw .nameTaken(name: account.name, network: previous.network.rawValue, server: previous.server)
                }
                var kept = account
                // A login again, or a renewed session, keeps the home the person chose
                // (``setHomeFeed(_:of:)`` is how it changes).
                if kept.homeFeed == nil, previous.isSameAccount(as: account) { kept.homeFeed = previous.homeFeed }
                file.accounts[index] = kept
                return previous
            }
            file.accounts.append(account)
            return nil
        }
    }

    /// Makes `feed` (a custom feed's ID, as ``Account/homeFeed`` holds it; `nil`: the server's
    /// own home timeline) the home timeline of the account named `name`, and answers the
    /// account as it now is. Written under the file's lock, changing nothing else.
    ///
    /// - Throws: `.unknownAccount` when no account has that name.
    @discardableResult
    public func setHomeFeed(_ feed: String?, of name: String) throws(AccountError) -> Account {
        try update { file throws(AccountError) in
            guard let index = file.accounts.firstIndex(where: { $0.name == name }) else {
                throw .unknownAccount(name: name, known: file.accounts.map(\.name))
            }
            file.accounts[index].homeFeed = feed
            return file.accounts[index]
        }
    }

    /// An entry of the accounts file that cannot be used (a name that breaks the rules, one used
    /// twice, a missing token, …): left out, so the other accounts work, kept in the file as it
    /// is, and said by `accounts` and `sync` until it is fixed or removed (`logout NAME`).
    public struct UnreadableEntry: Sendable, Equatable {
        /// Its name as the file has it (may hold anything: show it neutralised).
        public let name: String
        /// What is wrong, and where in the file.
        public let reason: String
    }

    /// The line `accounts` and `sync` say about an entry that cannot be used.
    public static func unusableNote(_ entry: UnreadableEntry, path: String) -> String {
        let name = TerminalText.line(entry.name)
        return "timeline: the account entry \(QuotedValue.quoted(name)) in \(path) cannot be used (\(TerminalText.line(entry.reason))); the other accounts work. Fix it there, or remove it: timeline logout \(QuotedValue.quoted(name))\n"
    }

    /// The entries of the file that cannot be used, in file order.
    public func unreadableEntries() throws(AccountError) -> [UnreadableEntry] {
        try load().unreadable.map { UnreadableEntry(name: $0.entry.name, reason: $0.reason) }
    }

    /// Forgets the account named `name` and returns it.
    @discardableResult
    public func remove(named name: String) throws(AccountError) -> Account {
        try update { file throws(AccountError) in
            guard let index = file.accounts.firstIndex(where: { $0.name == name }) else {
                throw .unknownAccount(name: name, known: file.accounts.map(\.name))
            }
            return file.accounts.remove(at: index)
        }
    }

    /// Removes the unreadable entries named `name`; returns how many there were.
    @discardableResult
    public func removeUnreadable(named name: String) throws(AccountError) -> Int {
        try update { file throws(AccountError) in
            let before = file.unreadable.count
            file.unreadable.removeAll { $0.entry.name == name }
            return before - file.unreadable.count
        }
    }

    // MARK: - The file

    /// What the file holds: the accounts this timeline knows, and entries of networks it does
    /// not (written by a newer timeline), which are kept as they are when the file is rewritten.
    private struct Contents {
        var accounts: [Account] = []
        var otherEntries: [AccountsFileEntry] = []
        /// Entries that cannot be used, with why: written back as they are.
        var unreadable: [(entry: AccountsFileEntry, reason: String)] = []
    }

    private func load() throws(AccountError) -> Contents {
        let read: (bytes: [UInt8], permissions: mode_t, ownedByCaller: Bool)
        do throws(FileSystem.ReadFailure) {
            read = try FileSystem.readPrivateFile(at: path, limit: Self.sizeLimit)
        } catch {
            switch error {
            case let .system(failure) where failure.isNotFound: return Contents()
            case let .system(failure): throw .fileSystem(failure)
            case let .notRegularFile(kind): throw .invalidFile(path: path, reason: "it is \(kind), not a regular file")
            case let .tooLarge(size, limit): throw .invalidFile(path: path, reason: "it has \(size) bytes, more than the \(limit) an accounts file can have")
            }
        }
        guard read.ownedByCaller else { throw .ownedByAnotherUser(path: path) }
        guard read.permissions & 0o077 == 0 else { throw .readableByOthers(path: path, permissions: UInt32(read.permissions)) }
        if read.bytes.allSatisfy({ $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }) { return Contents() }

        let bytes = read.bytes
        func invalid(_ offset: Int?, _ reason: String) -> AccountError {
            .invalidFile(path: path, reason: (offset.map { JSONFields.position(of: $0, in: bytes) + ": " } ?? "") + reason)
        }
        let root: JSONNode
        do throws(JSONLineFailure) {
            root = try JSONFields.document(bytes)
        } catch {
            throw invalid(error.offset, error.problem.sentence(field: nil))
        }
        guard root.isObject else { throw invalid(root.offset, "it must be a JSON object with version and accounts") }
        guard case let .number(digits, isInteger: true, isNegative: false)? = root["version"]?.value, let version = Int(digits) else {
            throw invalid(root["version"]?.offset ?? root.offset, "version must be a whole number")
        }
        guard version <= Self.formatVersion else { throw .newerFile(path: path, version: version) }
        guard let entries = root["accounts"]?.arrayValue else {
            throw invalid(root["accounts"]?.offset ?? root.offset, "accounts must be an array")
        }
        var contents = Contents()
        var names = Set<String>()
        for (index, node) in entries.enumerated() {
            let entry: AccountsFileEntry
            do throws(AccountsFileEntry.Problem) {
                entry = try AccountsFileEntry(node)
            } catch {
                throw invalid(error.offset, "accounts[\(index)]: \(error.reason)")
            }
            // From here, one bad entry is set aside and the others stay usable.
            func setAside(_ offset: Int?, _ reason: String) {
                let place = offset.map { JSONFields.position(of: $0, in: bytes) + ": " } ?? ""
                contents.unreadable.append((entry, "\(place)accounts[\(index)]: \(reason)"))
            }
            guard names.insert(entry.name).inserted else {
                setAside(node.offset, "the name is used twice; only its first entry is used")
                continue
            }
            guard let network = Account.Network(rawValue: entry.network) else {
                contents.otherEntries.append(entry)
                continue
            }
            do throws(AccountsFileEntry.Problem) {
                contents.accounts.append(try entry.account(network: network))
            } catch {
                setAside(error.offset, error.reason)
            }
        }
        return contents
    }

    private func update<T>(_ change: (inout Contents) throws(AccountError) -> T) throws(AccountError) -> T {
        do throws(FileSystemError) {
            try FileSystem.createDirectories(directory, permissions: 0o700)
        } catch {
            throw .fileSystem(error)
        }
        let outcome: T?
        do throws(FileLockError<AccountError>) {
            outcome = try FileLock.withLock(path + ".lock", timeout: .seconds(10)) { () throws(AccountError) -> T in
                var contents = try load()
                let result = try change(&contents)
                try write(contents)
                return result
            }
        } catch {
            switch error {
            case let .lock(failure): throw .fileSystem(failure)
            case let .body(failure): throw failure
            }
        }
        guard let outcome else {
            throw .fileSystem(FileSystemError(operation: "lock (waited 10 s for another timeline)", path: path + ".lock", code: .wouldBlock))
        }
        return outcome
    }

    private func write(_ contents: Contents) throws(AccountError) {
        let entries = contents.accounts.map(AccountsFileEntry.init) + contents.otherEntries + contents.unreadable.map(\.entry)
        // Written by hand rather than with JSONEncoder, whose key order changes from run to run:
        // a person reads and edits this file.
        var bytes = Array("{\n  \"version\": \(Self.formatVersion),\n  \"accounts\": [".utf8)
        for (index, entry) in entries.enumerated() {
            bytes += Array((index == 0 ? "\n    {" : ",\n    {").utf8)
            for (number, field) in entry.fields.enumerated() {
                bytes += Array((number == 0 ? "\n      " : ",\n      ").utf8)
                JSONLineEncoder.appendString(field.name, to: &bytes)
                bytes += Array(": ".utf8)
                JSONLineEncoder.appendString(field.value, to: &bytes)
            }
            bytes += Array("\n    }".utf8)
        }
        bytes += Array((entries.isEmpty ? "]\n}\n" : "\n  ]\n}\n").utf8)
        do throws(FileSystemError) {
            try FileSystem.replaceAtomically(path, with: bytes, temporaryPath: path + ".tmp", permissions: 0o600)
        } catch {
            throw .fileSystem(error)
        }
    }
}

/// An account and its token, ready for requests: what ``AccountStore/credentials(named:)`` gives.
public struct AccountCredentials: Sendable {
    /// The stored account.
    public let account: Account
    /// Its access token (from the file or its `token_command`).
    public let token: AccessToken

    /// The account's name (`alice@mastodon.social`).
    public var name: String { account.name }
    /// The server's base URL (`https://mastodon.social`).
    public var server: String { account.server }
}

extension Account {
    /// The account's access token: the stored one, or what its `token_command` prints.
    public func accessToken() throws(AccountError) -> AccessToken {
        try secret.token(account: name)
    }
}

extension Account.Secret {
    /// The access token: the stored one, or what the command prints (run each time: a password
    /// manager decides how long it stays unlocked). `account` names it in errors.
    public func token(account: String) throws(AccountError) -> AccessToken {
        switch self {
        case let .token(token): token
        case let .command(command): try TokenCommand.run(command, account: account)
        case let .session(session): session.accessToken
        }
    }
}

/// One account as the file writes it. Field names are snake_case like the Mastodon API's.
private struct AccountsFileEntry {
    var name: String
    var network: String
    var server: String
    var accountID: String
    var acct: String
    var clientID: String?
    var clientSecret: String?
    var token: String?
    var tokenCommand: String?
    /// A renewable session's access token (`token` is then its refresh token) and where its
    /// requests go: `pds`, Bluesky's word, kept as the files already written spell it.
    var accessToken: String?
    var pds: String?
    /// ``Account/homeFeed``: absent in files written before issue 37, which read as none.
    var homeFeed: String?

    /// What is wrong with an entry, and where. The reason never quotes a value: it may be a
    /// secret.
    struct Problem: Error {
        var offset: Int
        var reason: String
    }

    init(_ account: Account) {
        name = account.name
        network = account.network.rawValue
        server = account.server
        accountID = account.accountID
        acct = account.acct
        clientID = account.client?.id
        clientSecret = account.client?.secret
        homeFeed = account.homeFeed
        switch account.secret {
        case let .token(token): self.token = token.value
        case let .command(command): tokenCommand = command
        case let .session(session):
            token = session.refreshToken.value
            accessToken = session.accessToken.value
            pds = session.service
        }
    }

    init(_ node: JSONNode) throws(Problem) {
        guard node.isObject else { throw Problem(offset: node.offset, reason: "each account must be a JSON object") }
        func optional(_ key: String) throws(Problem) -> String? {
            guard let value = node[key]?.nonNull else { return nil }
            guard let text = value.stringValue else { throw Problem(offset: value.offset, reason: "\(key) must be a string") }
            return text
        }
        func required(_ key: String) throws(Problem) -> String {
            guard let text = try optional(key) else { throw Problem(offset: node.offset, reason: "the field \(key) is missing") }
            return text
        }
        name = try required("name")
        network = try required("network")
        server = try required("server")
        accountID = try required("account_id")
        acct = try required("acct")
        clientID = try optional("client_id")
        clientSecret = try optional("client_secret")
        token = try optional("token")
        tokenCommand = try optional("token_command")
        accessToken = try optional("access_token")
        pds = try optional("pds")
        homeFeed = try optional("home_feed")
        offset = node.offset
    }

    /// Where the entry starts in the file, for errors about it as a whole.
    private var offset = 0

    /// The fields present, in the order the file shows them.
    var fields: [(name: String, value: String)] {
        let all: [(String, String?)] = [
            ("name", name), ("network", network), ("server", server), ("account_id", accountID), ("acct", acct),
            ("client_id", clientID), ("client_secret", clientSecret), ("token", token), ("access_token", accessToken),
            ("pds", pds), ("token_command", tokenCommand), ("home_feed", homeFeed),
        ]
        return all.compactMap { name, value in value.map { (name, $0) } }
    }

    func account(network: Account.Network) throws(Problem) -> Account {
        func problem(_ reason: String) -> Problem { Problem(offset: offset, reason: reason) }
        if let reason = Account.nameProblem(name) { throw problem(reason + "; rename it (or log in again with --name)") }
        do throws(HTTPTransportError) {
            _ = try RequestURL(server)
        } catch {
            throw problem("server: \(error)")
        }
        let secret: Account.Secret
        if case .appPassword = network.login?.kind {
            // A session: `token` is its refresh token, `access_token` its access token.
            guard let refresh = token.flatMap({ AccessToken($0) }), let access = accessToken.flatMap({ AccessToken($0) }) else {
                throw problem("a \(network.rawValue) account needs token and access_token (its session); log in again to write them")
            }
            var account = Account(name: name, network: network, server: server, accountID: accountID, acct: acct, client: nil,
                                  secret: .session(RenewableSession(accessToken: access, refreshToken: refresh, service: pds)))
            account.homeFeed = homeFeed
            if let reason = network.storedAccountProblem(account) { throw problem(reason) }
            return account
        }
        switch (token, tokenCommand) {
        case let (token?, nil):
            // The error must not quote the value: it is (or was meant to be) a secret.
            guard let accessToken = AccessToken(token) else { throw problem("token is not a valid access token (empty, or with spaces or control characters)") }
            secret = .token(accessToken)
        case let (nil, command?):
            guard !command.allSatisfy(\.isWhitespace) else { throw problem("token_command is empty") }
            secret = .command(command)
        case (nil, nil):
            throw problem("it has neither token nor token_command; give one")
        case (_?, _?):
            throw problem("it has both token and token_command; keep one")
        }
        let client: OAuthClient? = switch (clientID, clientSecret) {
        case let (id?, secret?): OAuthClient(id: id, secret: secret)
        default: nil
        }
        var account = Account(name: name, network: network, server: server, accountID: accountID, acct: acct,
                              client: client, secret: secret)
        account.homeFeed = homeFeed
        return account
    }
}
