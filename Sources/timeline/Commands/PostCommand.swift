#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import TimelineKit

extension PostVisibility: ExpressibleByArgument {}

struct PostCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "post",
        abstract: "Publish a message to your account, or add one written here.",
        discussion: """
            With an account (`timeline login`), the message is published there and the server's \
            status is stored; with several accounts, --account says which. Each post carries an \
            Idempotency-Key, the same on every retry within one run; --idempotency-key sets it, \
            so a script can send the same key again. Whether that prevents a second post is the \
            server's decision: Mastodon publishes a key once (for an hour), while servers that \
            ignore the header (Takahē) publish each request.

            Offline: the post is written down before it is sent. When the server cannot be \
            reached (connection refused, no answer, 5xx after one retry), it is kept and the \
            command says so in one line (exit status 0; --json: "pending": true, "reason"): `show` \
            paints it at the top of the timeline as ⋯ pending, and the next `timeline sync` \
            publishes it, once, with the key chosen now (Mastodon's Idempotency-Key; on Bluesky \
            the record's key), and says so. A post the server refuses then (too long) is said \
            and no longer waits. `timeline delete` on a waiting post takes it back unsent.

            --local (or no account at all) keeps the message here only: its author is a stored \
            user named by handle (add one with `timeline user`), and it is marked read.

            --json prints one object: id, author (the author's ID, as in `show --json`), handle, \
            created_at, url when the server gave one, and media when the post has pictures: \
            what the server answered for each, in --image order (Mastodon's media IDs, Bluesky's \
            blob CIDs).

            --reply-to and --quote take a message as every command does (its short reference, \
            stored ID, server's ID or web address). A post not stored here is sent to the server \
            by its ID: give it as SERVER/ID (mastodon.social/1135…, an at:// URI on Bluesky) or \
            as its web address. A short reference (bkd) names only a stored message: one that \
            names none is refused (exit 65), even when some server's ID is spelled the same.

            To a Bluesky account, links, @handles and #tags become the post's facets (links in \
            every Bluesky app); --visibility and --idempotency-key are Mastodon's.

            --language CODE (en, pt-BR) names the language it is written in, on both networks; \
            without it, the locale's (LC_ALL, LC_MESSAGES or LANG: pt_BR.UTF-8 gives pt) when it \
            names one. --sensitive marks its pictures sensitive: Mastodon shows them behind a \
            warning; on Bluesky it writes the self-label graphic-media, as the Bluesky app does \
            (--label sexual, nudity, porn or graphic-media names the label; readers' apps blur \
            or hide the pictures; a post without pictures shows no warning). Bluesky has no \
            written warning, so --cw is refused there, naming --sensitive.

            --poll OPTION, once for each option, attaches a poll (Mastodon): 2 to the server's \
            most (configuration.polls of /api/v2/instance, read before sending; 4 options of 50 \
            characters by default), open for --poll-expires (default 1d: Mastodon requires a \
            time), one choice unless --poll-multiple. Bluesky has no polls: refused, nothing sent.

            --at TIME ("2026-12-01 09:30", this machine's time zone, or RFC 3339) or --in \
            DURATION (2h, 1d) has the server publish it then (Mastodon's scheduled_at), at least \
            5 minutes ahead: an earlier or past time is refused, nothing created. The command \
            prints the scheduled post's ID; `timeline scheduled` lists them and `timeline \
            unschedule ID` cancels one. Offline, it waits like any post; a sync that reaches the \
            server less than 5 minutes before its time refuses it (post it again). Bluesky has no \
            scheduled posts: --at and --in are refused there in one line, nothing kept.

            On Bluesky, a post whose text has a link gets a link card for the first one \
            (app.bsky.embed.external), as the Bluesky app makes it: the page's og:title (else its \
            <title>), og:description (else its description) and og:image, uploaded as the \
            thumbnail. The page is read when the post is sent (by the sync, for a post that \
            waited), with no token or cookie, at most 1 MB, 10 s and 3 redirects; a page that \
            cannot give a card is said in one line and the post goes without it. A quote gets \
            no card (its embed is the quoted post); --no-card makes none.

            Pictures: --image FILE, up to 4, shown in the order given; the first --alt is the \
            alt text of the first --image, the second of the second, and so on (more --alt than \
            --image is refused). A picture without alt text is refused, unless --no-alt posts \
            the pictures given none without, or a person at a terminal types it when asked. \
            Pictures are sent as they are, never re-encoded, except that a JPEG's EXIF location \
            (GPS) is taken out before it leaves the machine (--keep-exif keeps it). Type, bytes \
            and pixels are checked against the server's own limits before anything is sent \
            (Mastodon's /api/v2/instance; Bluesky: 1,000,000 bytes), and a refusal names the \
            file. Offline, the post keeps copies of its pictures beside the database, so \
            deleting your files does not stop the next sync from posting it.

            --quote shows another post inside yours: on Bluesky an embedded record \
            (app.bsky.embed.record); on Mastodon quoted_status_id, which only servers with \
            Mastodon's quotes API (4.5 and later: api_versions.mastodon 7 in /api/v2/instance) \
            take: elsewhere the post is refused, nothing sent, rather than published without \
            its quote (exit 69).

            The text is the argument; `-`, or no argument with standard input not a terminal, \
            reads it from standard input (a trailing line break is dropped). With no argument at \
            a terminal, your editor opens ($VISUAL, else $EDITOR, else vi), as `git commit` does, \
            on a file that quotes the message replied to under lines starting with "# "; those \
            lines are left out (a line starting with a #hashtag is kept). An empty text is \
            refused, never posted (exit status 1 when the editor is left empty).

            Examples:
              timeline post "Shipping the new release today 🚀"
              fortune | timeline post -
              timeline post --cw "film spoilers" --visibility unlisted "The ending…"
              timeline post --reply-to mastodon.social/113542871234567890 "Agreed!"
              timeline post --quote bkd "This, exactly."
              timeline post --poll Tabs --poll Spaces --poll-expires 3d "Which one?"
              timeline post --in 2h --language en "Good morning, Europe"
              timeline post --image cat.jpg --alt "A cat asleep on a keyboard" "Monday"
              timeline post --local --as alice "A note to self"
            """)

    @OptionGroup var location: LocationOptions

    @Option(name: .long, help: ArgumentHelp("The account to publish to (its name in `timeline accounts`).", valueName: "name"))
    var account: String?

    @Option(name: .long, help: ArgumentHelp("A content warning shown instead of the text until opened.", valueName: "text"))
    var cw: String?

    @Option(name: .long, help: ArgumentHelp("The message this replies to: its short reference (as `show` paints it), its ID as `timeline show --json` prints it, the server's own ID, or the post's web address. A post not stored here: SERVER/ID or its web address (a short reference names only a stored message).", valueName: "id"))
    var replyTo: String?

    @Option(name: .long, help: ArgumentHelp("The message this quotes (shown inside it), named as for --reply-to: Bluesky always; Mastodon where the server has quote posts (4.5).", valueName: "id"))
    var quote: String?

    @Option(name: .long, help: ArgumentHelp("Who may see it: public, unlisted, private or direct (default: the account's; a reply to a direct or followers-only post, that post's).", valueName: "visibility"))
    var visibility: PostVisibility?

    @Option(name: .long, help: ArgumentHelp("The Idempotency-Key to send (default: a new random one); servers that honour it publish a key once.", valueName: "key"))
    var idempotencyKey: String?

    // Issue 36: language, sensitive media and labels, polls, scheduled posts, link cards.
    @OptionGroup(title: "Language, warnings, polls, schedules and link cards") var options: PostOptionArguments

    @Flag(name: .long, help: "Keep the message here only, written by --as.")
    var local = false

    @Option(name: .customLong("as"), help: ArgumentHelp("With --local: the author's handle (with or without @).", valueName: "handle"))
    var handle: String?

    @Argument(help: ArgumentHelp("The text of the message; - (or none, on a pipe) reads it from standard input.", valueName: "text"))
    var text: String?

    @Flag(name: .long, help: "Print one JSON object: the new message's id, author, handle, created_at and url.")
    var json = false

    // Pictures (issue 36).

    @Option(name: .long, help: ArgumentHelp("A picture to show with the post (PNG, JPEG, GIF or WebP); up to 4, in this order.", valueName: "file"))
    var image: [String] = []

    @Option(name: .long, help: ArgumentHelp("The alt text of a picture: the first --alt is the first --image's, the second the second's, and so on.", valueName: "text"))
    var alt: [String] = []

    @Flag(name: .long, help: "Post the pictures given no --alt without alt text.")
    var noAlt = false

    @Flag(name: .long, help: "Send JPEGs with their EXIF location (GPS); it is taken out otherwise.")
    var keepExif = false

    func validate() throws {
        if local, account != nil { throw ValidationError("--local keeps the message here; it cannot go to --account too.") }
        if local || handle != nil, cw != nil || replyTo != nil || quote != nil || visibility != nil || idempotencyKey != nil {
            throw ValidationError("--cw, --reply-to, --quote, --visibility and --idempotency-key are for publishing to an account, not for --local posts.")
        }
        if local || handle != nil, options.isSet {
            throw ValidationError("--language, --sensitive, --label, --poll, --at, --in and --no-card are for publishing to an account, not for --local posts.")
        }
    }

    /// The largest text read from standard input: far past any server's limit (Mastodon's is
    /// 500 characters by default), small enough that a wrong pipe is refused at once.
    static let standardInputLimit = 1 << 20

    /// The text to post as typed: the argument, or standard input for `-` (or no argument on a
    /// pipe); `nil` when a person at the terminal gave none, who then writes it in the editor
    /// (``DraftEditor``), once everything else is known to be right. What is only white space
    /// is refused: a person who meant to post something did not. `edit` reads its text so too
    /// (`done` is then "changed").
    static func typedText(_ text: String?, done: String = "posted") throws(ExitCode) -> String? {
        var resolved: String
        if let text, text != "-" {
            resolved = text
        } else if text == "-" || !StandardInput.isTerminal {
            guard let input = StandardInput.readAll(limit: Self.standardInputLimit) else {
                throw fail(ValidationError("standard input holds more than \(Counted(Self.standardInputLimit, "byte")): that is not a post."))
            }
            resolved = input
            while resolved.last?.isNewline == true { resolved.removeLast() }
        } else {
            return nil
        }
        if resolved.allSatisfy(\.isWhitespace) {
            throw fail(ValidationError("the text is empty, so nothing was \(done)\(text == nil || text == "-" ? " (standard input held none)" : "")."))
        }
        return resolved
    }

    /// The author's handle and the text of the stored message `id` (of its original, for a
    /// repost), for the editor's help to quote; `nil` when it is not stored.
    static func quotable(_ id: String?, in store: TimelineStore?) -> (handle: String, text: String)? {
        guard let id, let store, let message = try? store.message(id: id) else { return nil }
        let shown = message.repostOfID.flatMap { try? store.message(id: $0) } ?? message
        let handle = (try? store.users(ids: [shown.authorID]).first?.handle) ?? nil
        return (handle ?? shown.authorID, shown.text)
    }

    /// The text written in the editor for `purpose`, the help quoting `about` (a stored message).
    static func editedText(_ purpose: DraftFile.Purpose, about id: String?, in store: TimelineStore?, text: String = "") throws(ExitCode) -> String {
        do throws(DraftEditor.Failure) {
            return try DraftEditor.write(purpose, text: text, help: DraftFile.help(for: purpose, about: quotable(id, in: store)))
        } catch {
            Terminal.emitError("timeline: \(error)\n")
            throw ExitCode(ExitStatus.failure)
        }
    }

    func run() throws {
        let typed = try Self.typedText(text)
        let accountStore = try reportingErrors { try AccountStore.standard() }
        let accounts = try reportingErrors { try accountStore.hasAccountsFile ? accountStore.accounts() : [] }
        if local || handle != nil || (accounts.isEmpty && account == nil) {
            try postLocally(typed)
            return
        }
        let target: Account
        if let account {
            target = try reportingErrors { try accountStore.account(named: account) }
        } else if accounts.count == 1 {
            target = accounts[0]
        } else {
            let names = accounts.map { TerminalText.line($0.name) }.joined(separator: ", ")
            throw fail(ValidationError("several accounts (\(names)): say which with --account NAME, or --local --as HANDLE."))
        }
        var draft = PostDraft(text: typed ?? "", contentWarning: cw, visibility: visibility, idempotencyKey: idempotencyKey)
        do throws(ValidationError) {
            try options.apply(to: &draft, now: Date(), environment: Terminal.environment)
        } catch {
            throw fail(error)
        }
        draft.pictures = try PostPictures(images: image, alts: alt, noAlt: noAlt, keepExif: keepExif).pictures()
        if let refusal = target.network.refusal(of: .post) { throw fail(refusal) }
        if let refusal = target.network.capabilities.refusal(of: draft) { throw fail(ValidationError(refusal)) }
        let store = try location.openStore(create: true)
        // A hashtag's, a list's or a feed's post (`rust:bkd`) is named by its ID from the database
        // it is kept in; which is where a feed kept what to tell its generator of a reply (issue 37).
        var sourced: [(interaction: FeedInteraction, id: String, store: TimelineStore)] = []
        func storedTarget(_ reference: String, _ verb: String, _ interaction: FeedInteraction) throws(ExitCode) -> String {
            try ChatReference.refuseAsPost(reference)
            guard SourceReference.parse(reference) != nil else { return try Self.storedID(for: reference, in: store) }
            let found = try location.storesHolding([reference], verb: verb)[0]
            sourced.append((interaction, found.id, found.store))
            return found.id
        }
        draft.replyTo = try replyTo.map { reference throws(ExitCode) in try storedTarget(reference, "reply to", .reply) }
        draft.quoteOf = try quote.map { reference throws(ExitCode) in try storedTarget(reference, "quote", .quote) }
        if typed == nil {
            let purpose: DraftFile.Purpose = draft.replyTo != nil ? .reply : draft.quoteOf != nil ? .quote : .post
            draft.text = try Self.editedText(purpose, about: draft.replyTo ?? draft.quoteOf, in: store)
        }
        // Through the outbox (issue 27): written down before it is sent, so a post whose server
        // cannot be reached is kept (and shown, pending) for the next sync, never lost, and its
        // key, chosen now, makes every try publish it once.
        let session = try reportingErrors { try accountStore.session(for: target, transport: CurlTransport(), policy: OutboxRequest.policy) }
        // A link card that could not be made (issue 36) is said in one line; the post goes without it.
        LinkCardNotices.listen { sentence in Terminal.emitError("timeline: \(TerminalText.line(sentence))\n") }
        let kind = draft.replyTo != nil ? "reply" : draft.quoteOf != nil ? "quote" : "post"
        let outcome = try reportingErrors { [draft] () throws -> OutboxOutcome in
            try OutboxRequest(session: session, store: store, what: "the \(kind)").perform(.post(draft))
        }
        switch outcome.delivery {
        case let .done(.posted(message, widened, media)):
            // Best effort: told or not, the post is made.
            for (interaction, id, kept) in sourced {
                _ = waitFor { () async -> Bool in await session.sendFeedInteraction(interaction, on: id, in: kept) }
            }
            let author = try reportingErrors { try store.users(ids: [message.authorID]).first }
            report(message, handle: author?.handle, media: media)
            if let widened {
                // Asked for, so done; said, because a reply is otherwise never wider than its post.
                Terminal.emitError("timeline: the reply is \(widened.after.rawValue), wider than the \(widened.before.rawValue) post it answers (--visibility \(widened.after.rawValue) asked for it).\n")
            }
        case let .done(.scheduled(scheduled)):
            reportScheduled(scheduled)
        case let .waiting(reason):
            // Its short reference, as `show` paints the waiting post.
            let reference = (try? store.message(id: outcome.entry.placeholderID ?? ""))?.shortReference
            let named = reference.map { $0.isNone ? "" : " \($0.text)" } ?? ""
            OutboxRequest(session: session, store: store, what: "the \(kind)\(named)").waiting(reason, json: json) { object in
                object.add("id", outcome.entry.placeholderID ?? "")
            }
        case .done:
            break
        }
    }

    /// The stored message `reference` names, or the ID the server may still know the post by
    /// (``TimelineStore/resolvePostTarget(_:)``); an unknown short reference is refused as every
    /// action refuses it (65).
    static func storedID(for reference: String, in store: TimelineStore) throws(ExitCode) -> String {
        do throws(TimelineStoreError) {
            return try store.resolvePostTarget(reference)
        } catch {
            throw MessageSessions.refusal(error)
        }
    }

    private func postLocally(_ typed: String?) throws(ExitCode) {
        if !image.isEmpty || !alt.isEmpty {
            throw fail(ValidationError("--image and --alt are for publishing to an account: a message kept here only has no pictures."))
        }
        guard let handle else {
            throw fail(ValidationError("a local post needs its author: --as HANDLE (or log in to an account: timeline login mastodon URL)."))
        }
        let store = try location.openStore(create: true)
        let bare = handle.hasPrefix("@") ? String(handle.dropFirst()) : handle
        let authors = try reportingErrors { try store.users(handle: bare) }
        guard authors.count == 1, let author = authors.first else {
            if authors.isEmpty {
                Terminal.emitError("timeline: no user has the handle @\(bare). Add one first: timeline user ID --handle \(bare) --name \"Your Name\"\n")
            } else {
                Terminal.emitError("timeline: several users have the handle @\(bare) (IDs \(authors.map(\.id).joined(separator: ", "))). Give them different handles with `timeline user ID --handle NEW`.\n")
            }
            throw ExitCode(ExitStatus.dataError)
        }
        let text: String
        if let typed { text = typed } else { text = try Self.editedText(.post, about: nil, in: nil) }
        let message = try reportingErrors { try store.post(text, authorID: author.id) }
        report(message, handle: author.handle)
    }

    /// A scheduled post in one line (`Scheduled 1234 for 2026-12-01T08:30:00.000Z.`), or one
    /// JSON object: `scheduled_id`, `scheduled_at`.
    private func reportScheduled(_ scheduled: ScheduledPost) {
        let time = scheduled.scheduledAt.formatted(.iso8601)
        if json {
            var object = JSONObjectWriter()
            object.add("scheduled_id", scheduled.id)
            object.add("scheduled_at", time)
            Terminal.emit(object.finish() + "\n")
        } else {
            Terminal.emit("Scheduled \(TerminalText.line(scheduled.id)) for \(time) (timeline scheduled lists it; timeline unschedule \(TerminalText.line(scheduled.id)) cancels it).\n")
        }
    }

    /// One line for a person, or one JSON object for a script; the server's text is neutralised
    /// either way.
    /// `media`: what the server answered for the post's pictures (media IDs, blob CIDs), in
    /// --image order; said with --json only, and only when there are pictures.
    private func report(_ message: Message, handle: String?, media: [String] = []) {
        if json {
            var object = JSONObjectWriter()
            object.add("id", message.id)
            object.add("author", message.authorID)
            if let handle { object.add("handle", handle) }
            object.add("created_at", message.createdAt.formatted(.iso8601))
            if let url = message.url { object.add("url", url) }
            if !media.isEmpty { object.add("media", media) }
            Terminal.emit(object.finish() + "\n")
        } else {
            var line = "Posted \(TerminalText.line(message.id))"
            if let url = message.url { line += " \(TerminalText.line(url))" }
            Terminal.emit(line + ".\n")
        }
    }
}
