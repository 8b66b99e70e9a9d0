import ArgumentParser
import TimelineFeeds
import TimelineKit

/// The exit statuses `timeline` uses, as docs/user-guide.md ("Exit statuses") documents them.
/// The numbers follow BSD's sysexits.h where one fits, so scripts can tell "try again later" from "fix your input".
enum ExitStatus {
    static let success: Int32 = 0
    /// Something failed that none of the codes below describes (I/O, SQLite).
    static let failure: Int32 = 1
    /// `snapshot --check`: the snapshot is stale.
    static let snapshotStale: Int32 = 3
    /// `snapshot --check`: there is no snapshot.
    static let snapshotMissing: Int32 = 4
    /// `snapshot --check`: the snapshot is unreadable (corrupt, foreign, newer format).
    static let snapshotUnusable: Int32 = 5
    /// A bad flag or argument (ArgumentParser's validation failure, EX_USAGE).
    static let usage: Int32 = 64
    /// Input data was refused: a malformed import line, an invalid value (EX_DATAERR).
    static let dataError: Int32 = 65
    /// A file that must exist does not: no database yet for a command that needs one (EX_NOINPUT).
    static let noInput: Int32 = 66
    /// The database, or the directory that holds it, cannot be written by this user (EX_NOPERM).
    static let readOnly: Int32 = 77
    /// The database was written by a newer timeline (EX_SOFTWARE would blame us; EX_CONFIG fits).
    static let newerDatabase: Int32 = 78
    /// The accounts file is refused (permissions, content, newer format) (EX_CONFIG).
    static let configuration: Int32 = 78
    /// A server cannot be reached, or curl is not installed (EX_UNAVAILABLE).
    static let unavailable: Int32 = 69
    /// A server's answer is not what its API sends (EX_PROTOCOL).
    static let protocolError: Int32 = 76
    /// A server refused the credentials, or no token could be had: log in again (EX_NOPERM).
    static let noPermission: Int32 = 77
    /// The database stayed locked by another process past the timeout, or a server is busy or
    /// too slow; try again (EX_TEMPFAIL).
    static let busy: Int32 = 75
}

/// Reports an error the way every command does: one line on standard error naming the problem
/// and what to do, then the matching exit status.
func fail(_ error: any Error) -> ExitCode {
    Terminal.emitError("timeline: \(error)\n")
    return ExitCode(exitStatus(for: error))
}

func exitStatus(for error: any Error) -> Int32 {
    switch error {
    case let error as TimelineStoreError:
        switch error {
        case .busy, .migrationNeeded: ExitStatus.busy
        case .databaseMissing: ExitStatus.noInput
        case .databaseNewerThanLibrary: ExitStatus.newerDatabase
        case .readOnly: ExitStatus.readOnly
        case .unknownAuthor, .unknownMessages, .invalidValue, .ambiguousMessageReference: ExitStatus.dataError
        case .invalidSearch(.tooManyTerms): ExitStatus.dataError
        case .invalidSearch: ExitStatus.usage
        case .notATimelineDatabase, .cannotOpen, .snapshotNotWritten, .sqlite: ExitStatus.failure
        }
    case let error as ImportError:
        switch error.problem {
        case let .store(storeError): exitStatus(for: storeError)
        case .cannotRead: ExitStatus.noInput
        default: ExitStatus.dataError
        }
    case let error as HTTPTransportError:
        switch error {
        case .invalidURL, .insecureURL, .invalidHeader: ExitStatus.usage
        case .cannotConnect, .unavailable: ExitStatus.unavailable
        case .timedOut, .tooSlow: ExitStatus.busy
        case .responseTooLarge, .malformedResponse: ExitStatus.protocolError
        case .cancelled: ExitStatus.failure
        }
    case let error as LoginError:
        switch error {
        case .invalidServer, .invalidCode: ExitStatus.usage
        case let .transport(transportError): exitStatus(for: transportError)
        case .refused, .issuedTokenRefused: ExitStatus.noPermission
        case .temporaryFailure: ExitStatus.busy
        case .unexpectedAnswer: ExitStatus.protocolError
        }
    case let error as AccountError:
        switch error {
        case .noConfigurationDirectory, .readableByOthers, .ownedByAnotherUser, .invalidFile, .newerFile: ExitStatus.configuration
        case .fileSystem: ExitStatus.failure
        case .unknownAccount, .invalidName, .nameTaken: ExitStatus.usage
        case .tokenCommandFailed: ExitStatus.noPermission
        }
    case let error as ServerError:
        switch error {
        case .invalidServer, .replyTargetElsewhere: ExitStatus.usage
        case .invalidToken, .unauthorized: ExitStatus.noPermission
        case let .unreachable(transportError, _): error.isTemporary ? ExitStatus.busy : exitStatus(for: transportError)
        case let .store(storeError): exitStatus(for: storeError)
        case .rejected, .invalidResponse, .notSupported, .answerTooDeep: ExitStatus.protocolError
        case .serverLacks: ExitStatus.unavailable
        case .cancelled: ExitStatus.failure
        case .rateLimited, .timelineBeingRebuilt, .serverFailed, .markerConflict, .timeLimitReached: ExitStatus.busy
        }
    // A post's options beyond what its server takes (a poll's limits, issue 36): the data.
    case is PostOptionRefusal: ExitStatus.dataError
    case let error as FeedSubscriptionError:
        switch error {
        case .notAFeed: ExitStatus.dataError
        case .fetch(.transport(.responseTooLarge)): ExitStatus.dataError
        // The server asked to be asked later (429, 503): "try again later" is EX_TEMPFAIL.
        case .fetch(.retryLater): ExitStatus.busy
        case let .fetch(.transport(transportError)): exitStatus(for: transportError)
        case .fetch: ExitStatus.unavailable
        case .unknown, .nameTaken, .invalidName, .invalidInterval: ExitStatus.usage
        case .unreadable: ExitStatus.configuration
        }
    case let error as PictureError:
        switch error {
        case .unreadable: ExitStatus.noInput
        case .missingAlt, .tooMany: ExitStatus.usage
        case .notAPicture, .damagedHeader, .unreadableExif, .typeRefused, .tooLarge, .tooManyPixels: ExitStatus.dataError
        }
    case is SourceDatabaseNameError: ExitStatus.usage
    // A source that lacks the action: refused before any request, as a wrong flag is.
    case is SourceError: ExitStatus.usage
    case is SyncGate.Failure: ExitStatus.failure
    case is AccountImportError: ExitStatus.usage
    case is ValidationError: ExitStatus.usage
    default: ExitStatus.failure
    }
}
