#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The last sync of each account, kept beside the database (`timeline.sqlite.sync-status`),
/// so that every terminal's `show` learns that a background sync is failing, or that none runs,
/// with one small read and without opening the database.
///
/// The sync writes it (replaced atomically, under the sync lock) when it ends; `show`, `doctor`
/// and `accounts` read it. It is a cache of what the syncs said: a missing or damaged file is no
/// news, never an error, and the next sync writes it anew.
///
/// The layout, lines of tab-separated fields, is drawn here because it is read where a shell
/// starts: no JSON decoder on that path.
///
/// ```text
/// timeline sync status 1
/// NAME  LOGIN-COMMAND  LAST-ATTEMPT  LAST-SUCCESS|-  PROBLEM|-  FAILING-SINCE|-  REASON
/// ```
///
/// Times are whole seconds since 1970; text fields never hold a tab or a line break (they are
/// neutralised to one line before they are written).
public struct SyncStatusFile: Sendable {
    /// Where the file is.
    public let path: String

    /// The status file of the database at `databasePath`.
    public init(databasePath: String) {
        path = databasePath + ".sync-status"
    }

    static let header = "timeline sync status 1"
    /// A status file holds a line per account: far less than this.
    static let sizeLimit = 256 << 10

    /// Every account's status, in the order they were written; empty when there is no file or
    /// it cannot be read.
    public func read() -> [AccountSyncStatus] {
        guard let bytes = try? FileSystem.readRegularFile(at: path, limit: Self.sizeLimit) else { return [] }
        var lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: true)[...]
        guard lines.popFirst() == Substring(Self.header) else { return [] }
        return lines.compactMap(Self.status(from:))
    }

    /// Records how the syncs of `outcomes` ended at `now` (`nil`: succeeded), keeping what is
    /// known of the other accounts in `accounts` and dropping accounts no longer logged in.
    public func record(_ outcomes: [(account: Account, failure: (any Error)?)], accounts: [Account], at now: Date = Date()) throws(FileSystemError) {
        let previous = Dictionary(read().map { ($0.account, $0) }, uniquingKeysWith: { _, last in last })
        var updated: [String: AccountSyncStatus] = [:]
        for (account, failure) in outcomes {
            updated[account.name] = AccountSyncStatus.after(account, failure: failure, at: now, previous: previous[account.name])
        }
        let statuses = accounts.compactMap { updated[$0.name] ?? previous[$0.name] }
        var text = Self.header + "\n"
        for status in statuses { text += Self.line(for: status) + "\n" }
        try FileSystem.replaceAtomically(path, with: Array(text.utf8), temporaryPath: path + ".tmp", permissions: 0o600)
    }

    /// The accounts whose syncs a person should hear about at `now`.
    public func attention(at now: Date = Date()) -> [AccountSyncStatus.Attention] {
        read().compactMap { $0.attention(at: now) }
    }

    /// The one line `show` ends with on a terminal when syncs need a person (an account whose
    /// credentials were refused, syncs failing for an hour, none for a day), or `nil`.
    /// `syncJustStarted` (see ``SyncGate/startedRecently(at:)``) quiets the note that the
    /// timeline is stale: the sync that ends it is on its way. At most `columns` wide when
    /// given (the terminal's): the server's words in it are cut with a `…`.
    public func notice(at now: Date = Date(), syncJustStarted: Bool, columns: Int? = nil) -> String? {
        let attention = read().filter { !(syncJustStarted && $0.problem == nil) }.compactMap { $0.attention(at: now) }
        switch attention.count {
        case 0: return nil
        case 1: return "timeline: " + attention[0].line(fitting: columns.map { $0 - "timeline: ".count })
        default:
            // Within 80 columns up to 999 accounts: no server's words to cut here.
            let remedy = attention.contains(where: \.isCredentials) ? "see `timeline accounts` (log in again)" : "`timeline accounts` says why"
            return "timeline: \(Counted(attention.count, "account")) are not syncing: \(remedy)"
        }
    }

    private static func line(for status: AccountSyncStatus) -> String {
        func time(_ date: Date?) -> String { date.map { String(Int64($0.timeIntervalSince1970.rounded(.down))) } ?? "-" }
        return [TerminalText.line(status.account), TerminalText.line(status.loginCommand), time(status.lastAttempt),
                time(status.lastSuccess), status.problem?.rawValue ?? "-", time(status.failingSince),
                TerminalText.line(status.reason)].joined(separator: "\t")
    }

    private static func status(from line: Substring) -> AccountSyncStatus? {
        let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
        guard fields.count == 7, !fields[0].isEmpty else { return nil }
        func time(_ field: Substring) -> Date?? {
            if field == "-" { return .some(nil) }
            // Ten thousand years of seconds either way: anything else is damage, not a time.
            guard let seconds = Int64(field), abs(seconds) < 320_000_000_000 else { return nil }
            return .some(Date(timeIntervalSince1970: Double(seconds)))
        }
        guard let attempt = time(fields[2]), let lastAttempt = attempt, let lastSuccess = time(fields[3]),
              let failingSince = time(fields[5]) else { return nil }
        let problem: AccountSyncStatus.Problem?
        if fields[4] == "-" { problem = nil } else if let known = AccountSyncStatus.Problem(rawValue: String(fields[4])) { problem = known } else { return nil }
        return AccountSyncStatus(account: String(fields[0]), loginCommand: String(fields[1]), lastAttempt: lastAttempt,
                                 lastSuccess: lastSuccess, problem: problem, failingSince: failingSince, reason: String(fields[6]))
    }
}
