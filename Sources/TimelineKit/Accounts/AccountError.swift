/// Why the accounts file or an account's token could not be used, with what to do about it.
/// No case carries a token: errors are printed.
public enum AccountError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Neither `XDG_CONFIG_HOME` nor `HOME` is set, so there is no place for the accounts file.
    case noConfigurationDirectory
    /// The accounts file can be read (or written) by other users than its owner: it holds
    /// tokens, so it is refused until its permissions are fixed, as ssh refuses a private key.
    case readableByOthers(path: String, permissions: UInt32)
    /// The accounts file belongs to another user.
    case ownedByAnotherUser(path: String)
    /// The accounts file is not what `timeline` writes (bad JSON, a missing or wrong field).
    case invalidFile(path: String, reason: String)
    /// The accounts file was written by a newer `timeline`.
    case newerFile(path: String, version: Int)
    /// Reading or writing the file or its directory failed.
    case fileSystem(FileSystemError)
    /// No account has this name.
    case unknownAccount(name: String, known: [String])
    /// The account's `token_command` could not be run, failed, or printed no token.
    case tokenCommandFailed(account: String, command: String, reason: String)
    /// The name cannot be an account's name (``Account/nameProblem(_:)`` says why).
    case invalidName(name: String, reason: String)
    /// Another account has this name; replacing it needs `--replace` (a login to the same
    /// account again needs nothing).
    case nameTaken(name: String, network: String, server: String)

    public var description: String {
        switch self {
        case .noConfigurationDirectory:
            return "Cannot tell where the accounts file lives: neither XDG_CONFIG_HOME nor HOME is set. Set HOME (or XDG_CONFIG_HOME) and try again."
        case let .readableByOthers(path, permissions):
            let octal = String(permissions & 0o777, radix: 8)
            return "\(path) holds access tokens but its permissions (\(octal)) let other users read or change it, so it was not used. Run: chmod 600 \(path)"
        case let .ownedByAnotherUser(path):
            return "\(path) holds access tokens but belongs to another user, so it was not used. Remove it, or fix its owner, and log in again."
        case let .invalidFile(path, reason):
            return "\(path) cannot be read as timeline's accounts file: \(reason). Fix that entry, or remove the file and log in again."
        case let .newerFile(path, version):
            return "\(path) has format version \(version), written by a newer timeline; upgrade timeline to use it. The file was not changed."
        case let .fileSystem(error):
            return "\(error)."
        case let .unknownAccount(name, known):
            let list = known.isEmpty ? "there are no accounts yet; log in with `timeline login mastodon SERVER_URL`" : "the accounts are \(known.joined(separator: ", "))"
            return "No account is named \(name): \(list)."
        case let .tokenCommandFailed(account, command, reason):
            return "The token_command of account \(account) (\(command)) \(reason). Run it yourself to check it prints the token on its first line."
        case let .invalidName(name, reason):
            return "\(TerminalText.line(QuotedValue.quoted(name))) cannot be an account's name: \(reason). Choose another with --name."
        case let .nameTaken(name, network, server):
            return "An account named \(TerminalText.line(name)) already exists (\(network), \(TerminalText.line(server))), and this login is another account. Give this one another name with --name, or replace that one with --replace."
        }
    }
}
