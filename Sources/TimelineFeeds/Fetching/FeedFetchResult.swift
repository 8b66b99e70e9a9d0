import TimelineKit

/// What one fetch of a feed's URL gave.
public struct FeedFetchResult: Sendable, Hashable {
    /// What the server answered.
    public enum Outcome: Sendable, Hashable {
        /// A 304: the feed has not changed since the validators sent; nothing to parse.
        case notModified
        /// A 2xx with the body (at most ``FeedFetcher/maximumBytes``, decompressed).
        case fetched(body: [UInt8])
    }

    /// What the server answered.
    public var outcome: Outcome
    /// The URL that answered, after every redirect.
    public var finalURL: String
    /// Where the feed has moved for good: the URL after the redirects that were permanent (301,
    /// 308) before the first one that was not (302, 303, 307), or nil when the first was not
    /// permanent or there was none. The caller updates the subscription's URL to it; a temporary
    /// redirect changes nothing.
    public var movedPermanentlyTo: String?
    /// The validators of this answer (of the stored feed, for a 304 that sends none).
    public var validators: FeedValidators
    /// The response's `Content-Type`, when given.
    public var contentType: String?

    /// A result with the given parts.
    public init(outcome: Outcome, finalURL: String, movedPermanentlyTo: String? = nil,
                validators: FeedValidators = FeedValidators(), contentType: String? = nil) {
        self.outcome = outcome
        self.finalURL = finalURL
        self.movedPermanentlyTo = movedPermanentlyTo
        self.validators = validators
        self.contentType = contentType
    }
}
