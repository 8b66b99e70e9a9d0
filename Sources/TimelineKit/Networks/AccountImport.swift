/// How `timeline import --account NAME` reads a file saved from that account's network, so
/// that the file and the account's sync meet on the same messages instead of storing each
/// post twice: a Mastodon account's file is Mastodon API JSON whose IDs are stored under the
/// server's namespace (`mastodon.social/1234`); a Bluesky account's is Bluesky JSON
/// (`getTimeline`, `getPostThread`, …), whose IDs (AT URIs, DIDs) are global and stored as
/// they are, as the sync stores them.
public struct AccountImport: Sendable {
    /// The format the account's saved files are read as.
    public let format: ImportFormat
    /// The namespace the file's IDs are stored under (``TimelineImporter/importFile(atPath:format:namespace:detected:progress:)``);
    /// `nil` where the network's IDs are global.
    public let namespace: MastodonNamespace?

    /// How `account`'s saved files are read.
    ///
    /// - Throws: ``AccountImportError/invalidServer(_:)`` when a Mastodon account's server is
    ///   not a usable address; ``AccountImportError/networkWithoutImport(account:network:)`` for
    ///   a network whose files `timeline` cannot read.
    public init(account: Account) throws(AccountImportError) {
        switch account.network {
        case .mastodon:
            format = .mastodon
            do {
                namespace = MastodonNamespace(server: try ServerAddress(account.server))
            } catch {
                throw .invalidServer(error)
            }
        case .bluesky:
            format = .bluesky
            namespace = nil
        default:
            throw AccountImportError.networkWithoutImport(account: account.name, network: account.network.displayName)
        }
    }
}

/// Why `import --account` cannot read a file for an account.
public enum AccountImportError: Error, Equatable, CustomStringConvertible {
    /// The account's network has no saved-file format `timeline` reads.
    case networkWithoutImport(account: String, network: String)
    /// The account's server is not a usable address (the accounts file was edited by hand).
    case invalidServer(ServerError)

    /// The problem and what to do, in one line.
    public var description: String {
        switch self {
        case let .invalidServer(error): "\(error)"
        case let .networkWithoutImport(account, network):
            "\(account) is a \(network) account, whose saved files timeline cannot read; import the file without --account"
        }
    }
}
