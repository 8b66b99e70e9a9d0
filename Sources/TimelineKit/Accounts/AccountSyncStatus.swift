#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// How the syncs of one account have gone lately: when the last one ran, when one last
/// succeeded, and what stops them now. Kept in the ``SyncStatusFile`` beside the database, so
/// that `show` can say a background sync is failing, which otherwise only its log would know.
public struct AccountSyncStatus: Sendable, Equatable {
    /// What keeps this account's syncs from succeeding.
    public enum Problem: String, Sendable {
        /// The server refused the account's credentials (a revoked token, an expired session,
        /// a password manager that would not give the token): nothing helps but logging in again.
        case credentialsRefused = "credentials"
        /// Anything else: the server is gone or failing, the network is down, an answer made no
        /// sense. It may pass by itself.
        case failing
    }

    /// The account's name (`timeline accounts`).
    public var account: String
    /// What a person types to log in to this account again, e.g.
    /// `timeline login mastodon example.social`.
    public var loginCommand: String
    /// When the last sync of this account ended, well or not.
    public var lastAttempt: Date
    /// When a sync of this account last succeeded; `nil` if none has.
    public var lastSuccess: Date?
    /// Why the last sync failed; `nil` when it succeeded.
    public var problem: Problem?
    /// When the syncs began to fail (the first failure after the last success).
    public var failingSince: Date?
    /// The last failure's message, on one line; empty when the last sync succeeded.
    public var reason: String

    public init(account: String, loginCommand: String, lastAttempt: Date, lastSuccess: Date?,
                problem: Problem?, failingSince: Date?, reason: String) {
        self.account = account
        self.loginCommand = loginCommand
        self.lastAttempt = lastAttempt
        self.lastSuccess = lastSuccess
        self.problem = problem
        self.failingSince = failingSince
        self.reason = reason
    }

    /// The status after a sync of `account` that ended at `now`: `failure` is why it stopped,
    /// `nil` when it succeeded; `previous` is what was known before.
    public static func after(_ account: Account, failure: (any Error)?, at now: Date, previous: AccountSyncStatus?) -> AccountSyncStatus {
        guard let failure else {
            return AccountSyncStatus(account: account.name, loginCommand: account.loginCommand, lastAttempt: now,
                                     lastSuccess: now, problem: nil, failingSince: nil, reason: "")
        }
        return AccountSyncStatus(
            account: account.name, loginCommand: account.loginCommand, lastAttempt: now,
            lastSuccess: previous?.lastSuccess, problem: Problem(failure),
            failingSince: previous?.failingSince ?? now, reason: TerminalText.line("\(failure)"))
    }

    /// How long syncs may fail for something that can pass by itself (a server down, no
    /// network) before every terminal says so: an hour of a laptop offline is not news, a day of
    /// a server gone is. Refused credentials are said at once: only a new login ends them.
    public static let failingQuietly: TimeInterval = 60 * 60

    /// How old the last success may be, with no failure to explain it, before `show` says the
    /// timeline is stale: the shell hook syncs every five minutes while terminals open, so a day
    /// means no sync runs at all (no hook, or none that reaches this database).
    public static let staleAfter: TimeInterval = 24 * 60 * 60

    /// What is wrong with this account's syncs at `now` that a person should hear about, in a
    /// few words for a status line and the command that fixes it; `nil` when nothing is.
    public func attention(at now: Date) -> Attention? {
        let ages = RelativeTime(now: now)
        switch problem {
        case .credentialsRefused?:
            return Attention(account: account, summary: "the server refused the login \(ages.phrase(since: lastAttempt))",
                             reason: nil, remedy: loginCommand, isCredentials: true)
        case .failing?:
            let since = failingSince ?? lastAttempt
            // Never a success: the first day's sync failed, which is worth hearing at once.
            if let lastSuccess, now.timeIntervalSince(lastSuccess) < Self.failingQuietly { return nil }
            return Attention(account: account, summary: "syncs have failed since \(ages.phrase(since: since))",
                             reason: reason, remedy: "timeline sync", isCredentials: false)
        case nil:
            guard let lastSuccess, now.timeIntervalSince(lastSuccess) >= Self.staleAfter else { return nil }
            return Attention(account: account, summary: "last synced \(ages.phrase(since: lastSuccess))",
                             reason: nil, remedy: "timeline sync", isCredentials: false)
        }
    }

    /// Something a person should do about an account's syncs.
    public struct Attention: Sendable, Equatable {
        /// The account's name.
        public var account: String
        /// What is wrong, e.g. "the server refused the login 2h ago".
        public var summary: String
        /// The failure's own words, when the summary is of a failure: often the server's, of
        /// any length.
        public var reason: String?
        /// The command that fixes it.
        public var remedy: String
        /// Whether only logging in again helps.
        public var isCredentials: Bool

        /// The summary with the failure's words in brackets after it: "syncs have failed since
        /// 2 hours ago (the server answered 503)".
        public var explained: String {
            reason.map { summary + " (" + $0 + ")" } ?? summary
        }

        /// One line for a terminal: `alice@example.social: the server refused the login 2h ago;
        /// log in again: timeline login mastodon example.social`.
        public var line: String { line(fitting: nil) }

        /// ``line``, at most `columns` wide when given (issue 33: a server's 200 characters made
        /// it 381 columns, five rows of a terminal). What is wrong and the command that fixes it
        /// stay whole: the failure's words are cut first, with a `…` (to `(…)` when not even a
        /// few fit), then the account's name. A terminal narrower than what is wrong and its
        /// remedy gets them whole all the same, on two rows: a login command cut is no command.
        public func line(fitting columns: Int?) -> String {
            let name = TerminalText.line(account)
            let middle = ": " + TerminalText.line(summary)
            let end = (isCredentials ? "; log in again: " : "; run ") + TerminalText.line(remedy)
            let words = reason.map { TerminalText.line($0) }
            let whole = name + middle + (words.map { " (" + $0 + ")" } ?? "") + end
            guard let columns, DisplayWidth.of(whole) > columns else { return whole }
            let fixed = DisplayWidth.of(middle) + DisplayWidth.of(end)
            let roomForWords = columns - DisplayWidth.of(name) - fixed - " ()".count
            if let words, roomForWords >= 8 {
                return name + middle + " (" + TextWrapper.truncate(words, toWidth: roomForWords) + ")" + end
            }
            let cutWords = words == nil ? "" : " (…)"
            let roomForName = columns - fixed - DisplayWidth.of(cutWords)
            return TextWrapper.truncate(name, toWidth: max(8, roomForName)) + middle + cutWords + end
        }
    }
}

extension AccountSyncStatus.Problem {
    /// Refused credentials, told from any other failure.
    init(_ error: any Error) {
        switch error {
        case ServerError.unauthorized, ServerError.invalidToken: self = .credentialsRefused
        case AccountError.tokenCommandFailed: self = .credentialsRefused
        default: self = .failing
        }
    }
}

extension RelativeTime {
    /// `just now`, `5 minutes ago`, `3 hours ago`, `2 days ago`: an age in words for a sentence.
    public func phrase(since date: Date) -> String {
        let age = now.timeIntervalSince(date)
        // A clock set back, or a date from a damaged file: no age to speak of.
        guard age.isFinite, age < 1e12 else { return "long ago" }
        func ago(_ count: Int, _ unit: String) -> String { "\(Counted(count, unit)) ago" }
        if age < 60 { return "just now" }
        if age < 3_600 { return ago(Int(age / 60), "minute") }
        if age < 86_400 { return ago(Int(age / 3_600), "hour") }
        return ago(Int(age / 86_400), "day")
    }
}
