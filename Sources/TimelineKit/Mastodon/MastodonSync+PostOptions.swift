#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MastodonSync {
    /// What the server allows in a poll: `configuration.polls` of `GET /api/v2/instance`
    /// (`max_options`, `max_characters_per_option`, `min_expiration`, `max_expiration`), each
    /// missing or unreadable one Mastodon's default (``PollLimits/mastodonDefaults``), as for a
    /// server without v2 of the instance (404, 410). The most options is never above
    /// ``PollLimits/hardMaxOptions``.
    public func pollLimits() async throws(ServerError) -> PollLimits {
        var limits = PollLimits.mastodonDefaults
        let url = client.server.url("/api/v2/instance")
        guard let response = try await getUnlessGone(url) else { return limits }
        let polls = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) -> [String: Int] in
            let instance = try JSONObjectView(document, path: "", expected: "an instance object")
            guard let configuration = try? instance.object("configuration", expected: "the server's configuration"),
                  let polls = try? configuration.object("polls", expected: "the limits of polls") else { return [:] }
            var values: [String: Int] = [:]
            for key in ["max_options", "max_characters_per_option", "min_expiration", "max_expiration"] {
                if let value = try? polls.count(key), value > 0 { values[key] = value }
            }
            return values
        }
        limits.origin = "(at \(client.server.authority))"
        if let value = polls["max_options"] { limits.maxOptions = min(value, PollLimits.hardMaxOptions) }
        if let value = polls["max_characters_per_option"] { limits.maxCharactersPerOption = value }
        if let value = polls["min_expiration"] { limits.minExpiration = value }
        if let value = polls["max_expiration"] { limits.maxExpiration = value }
        return limits
    }
}

extension MastodonSync {
    /// Refuses `post` before it is sent when its poll is beyond the server's limits
    /// (``pollLimits()``, read only for a post with a poll) or its time is less than
    /// ``ScheduledPost/minimumLead`` after `now` (a post that waited in the outbox past it).
    ///
    /// - Throws: ``PostOptionRefusal`` saying what to change; the errors of reading the limits.
    func checkOptions(of post: MastodonPost, now: Date) async throws {
        if let date = post.scheduledAt, date.timeIntervalSince(now) < ScheduledPost.minimumLead {
            throw PostOptionRefusal("it was to be published at \(ServerError.timestamp(date)), less than 5 minutes from now (\(ServerError.timestamp(now))), which Mastodon does not take: post it again with a later --at, or without one.")
        }
        if let poll = post.poll, let refusal = poll.refusal(under: try await pollLimits()) {
            throw PostOptionRefusal(refusal)
        }
    }
}
