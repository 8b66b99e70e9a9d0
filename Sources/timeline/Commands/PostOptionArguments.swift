#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import TimelineKit

/// The options of issue 36 that `post` takes beside its text: language, sensitive media and
/// labels, a poll, a schedule, no link card. Each is read as typed and checked in ``apply(to:now:environment:)``,
/// so that a refusal is this command's one sentence (never the argument parser's), before
/// anything is queued or sent; what a network lacks is refused by its capabilities after.
struct PostOptionArguments: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp("The language it is written in: en, pt or pt-BR (default: the locale's, from LANG).", valueName: "code"))
    var language: String?

    @Flag(name: .long, help: "Mark its pictures sensitive (Mastodon: shown behind a warning; Bluesky: the self-label graphic-media).")
    var sensitive = false

    @Option(name: .long, help: ArgumentHelp("Bluesky: the self-label for its pictures, as the Bluesky app offers them: sexual, nudity, porn or graphic-media.", valueName: "label"))
    var label: String?

    @Option(name: .customLong("poll"), help: ArgumentHelp("A poll option; give it once for each (2 to 4 on most servers; the server's own limit is checked). Mastodon only.", valueName: "option"))
    var pollOptions: [String] = []

    @Option(name: .long, help: ArgumentHelp("How long the poll is open: 30m, 12h, 3d (default 1d).", valueName: "duration"))
    var pollExpires: String?

    @Flag(name: .long, help: "Voters may choose several of the poll's options.")
    var pollMultiple = false

    @Option(name: .customLong("at"), help: ArgumentHelp("Have the server publish it at TIME: \"2026-12-01 09:30\" (local) or RFC 3339; at least 5 minutes ahead. Mastodon only.", valueName: "time"))
    var at: String?

    @Option(name: .customLong("in"), help: ArgumentHelp("Have the server publish it after DURATION: 30m, 2h, 1d (at least 5 minutes). Mastodon only.", valueName: "duration"))
    var after: String?

    @Flag(name: .customLong("no-card"), help: "Bluesky: no link card for the post's first link.")
    var noCard = false

    /// Whether any of these options is given (a `--local` post takes none).
    var isSet: Bool {
        language != nil || sensitive || label != nil || !pollOptions.isEmpty || pollExpires != nil || pollMultiple || at != nil || after != nil || noCard
    }

    /// Sets `draft`'s language (``language`` over the locale's, read from `environment`), labels,
    /// poll, time and card, or refuses in one sentence naming the option and what to write.
    func apply(to draft: inout PostDraft, now: Date, environment: (String) -> String?) throws(ValidationError) {
        if let language {
            guard let code = PostLanguage.normalized(language) else {
                throw ValidationError("--language \(QuotedValue.quoted(language)) is not a language code: write \(PostLanguage.usage).")
            }
            draft.languages = [code]
        } else {
            draft.languages = PostDraft.languages(locale: environment)
        }
        draft.sensitive = sensitive
        if let label {
            guard let value = SelfLabel(rawValue: label) else {
                throw ValidationError("--label \(QuotedValue.quoted(label)) is not a label: write \(SelfLabel.spelled).")
            }
            draft.contentLabel = value
        }
        if pollOptions.isEmpty {
            if pollExpires != nil || pollMultiple {
                throw ValidationError("--poll-expires and --poll-multiple are for a poll: give its options with --poll OPTION, once for each.")
            }
        } else {
            var poll = PollDraft(options: pollOptions, multiple: pollMultiple)
            if let pollExpires {
                guard let limit = AgeLimit(pollExpires) else {
                    throw ValidationError("--poll-expires \(QuotedValue.quoted(pollExpires)) is not a duration: write \(AgeLimit.usage).")
                }
                poll.expiresIn = Int(clamping: limit.seconds)
            }
            if let refusal = poll.refusal(under: .anyServer) { throw ValidationError(refusal) }
            draft.poll = poll
        }
        if at != nil, after != nil { throw ValidationError("--at and --in both say when: give one.") }
        if let at {
            guard let date = ScheduleTime.parse(at) else {
                throw ValidationError("--at \(QuotedValue.quoted(at)) is not a time: write \(ScheduleTime.usage).")
            }
            if date <= now {
                throw ValidationError("--at \(QuotedValue.quoted(at)) is in the past: nothing was posted. Give a time at least 5 minutes ahead.")
            }
            if date.timeIntervalSince(now) < ScheduledPost.minimumLead {
                throw ValidationError("--at \(QuotedValue.quoted(at)) is less than 5 minutes ahead, which servers do not schedule: nothing was posted. Post it now without --at, or give a later time.")
            }
            draft.scheduledAt = date
        }
        if let after {
            guard let limit = AgeLimit(after) else {
                throw ValidationError("--in \(QuotedValue.quoted(after)) is not a duration: write \(AgeLimit.usage).")
            }
            guard TimeInterval(limit.seconds) >= ScheduledPost.minimumLead else {
                throw ValidationError("--in \(after) is less than 5 minutes, which servers do not schedule: nothing was posted. Post it now without --in, or give 5m or more.")
            }
            draft.scheduledAt = now.addingTimeInterval(TimeInterval(limit.seconds))
        }
        draft.linkCard = !noCard
    }
}
