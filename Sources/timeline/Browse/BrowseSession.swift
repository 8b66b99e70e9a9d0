#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import TimelineKit

/// One run of `timeline browse` once the terminal is taken: the view, the database behind it,
/// and the loop that feeds the view keys, signals and changes and writes its screen.
struct BrowseSession {
    var view: BrowseView
    let terminal: BrowseTerminal
    let location: TimelineLocation
    private var store: TimelineStore?
    private var watcher: TimelineChangeWatcher?
    private var decoder = BrowseKeyDecoder()
    /// The lines on the screen, to rewrite only those that change.
    private var painted: [String] = []
    private var snapshotNoteShown = false
    /// The logged-in accounts' sessions, loaded at the first `f`, `b`, `r`, `M`, `B` or `R`.
    private var sessions: Result<MessageSessions, MessageSessions.Refusal>?
    /// A reply that was not posted (the server did not take it, or a picture it names was
    /// refused), the message it answers and why: `r` on that message opens the editor on it
    /// again, the reason among the help lines, rather than lose what the person wrote.
    private var unsentReply: (to: String, text: String, reason: String)?
    /// `p`'s pictures: the terminal asked at the first `p`, what is on the screen.
    private var pictureDrawer = BrowsePictureDrawer()

    /// How many messages a page of older ones, or an unread-only view, reads.
    static let pageSize = 200
    /// How many stored messages a search shows.
    static let searchLimit = 200

    enum Ending {
        case quit
        case signal(Int32)
        case failure(String, Int32)
    }

    init(view: BrowseView, terminal: BrowseTerminal, location: TimelineLocation) {
        self.view = view
        self.terminal = terminal
        self.location = location
    }

    // MARK: Starting

    /// Opens the database behind the first paint, then runs the loop until it ends.
    mutating func start(preview: SnapshotPreview?, signals: Int32) -> Ending {
        let busyTimeout = BusyTimeout.show(nil)
        do throws(TimelineStoreError) {
            let store = try TimelineStore(path: location.databasePath, configuration: .init(
                createIfMissing: false, busyTimeout: .milliseconds(busyTimeout), migrationSizeLimit: ShowRunner.migrationSizeLimit))
            self.store = store
            let answer = try store.reconcile(preview, wholeWindow: true)
            view.replaceTimeline(answer.window, unreadOnly: false)
            if let baseline = answer.snapshot {
                watcher = TimelineChangeWatcher(store: store, since: baseline)
                if !answer.isSnapshotFresh { refreshSnapshot() }
            }
        } catch {
            switch error {
            case .databaseMissing where preview == nil:
                return .failure(SyncNotice.emptyTimeline(databasePath: location.databasePath, now: Date()), ExitStatus.success)
            case .databaseMissing:
                view.show(note: "the last snapshot: there is no database at \(location.databasePath)")
            default:
                if preview == nil { return .failure("timeline: \(error)\n", exitStatus(for: error)) }
                view.show(note: "not updated: \(error)")
            }
        }
        paint()
        return loop(signals: signals)
    }

    // MARK: The loop

    /// How long the loop sleeps without a database to watch (keys and signals wake it anyway).
    static let idleMilliseconds: Int32 = 1_000

    private mutating func loop(signals: Int32) -> Ending {
        var fds = [pollfd(fd: signals, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: BrowseTerminal.input, events: Int16(POLLIN), revents: 0)]
        // The same wake-up as `show -f` and the library's `changes(since:)`.
        var wake = store.map { DatabaseWriteWake(databasePath: $0.path, pollInterval: TimelineChangeWatcher.defaultPollInterval) }
        if let notices = wake?.descriptor { fds.append(pollfd(fd: notices, events: Int16(POLLIN), revents: 0)) }
        var ageRefreshAt = FollowLoop.milliseconds() + FollowLoop.ageRefreshMilliseconds
        while true {
            for index in fds.indices { fds[index].revents = 0 }
            let timeout = decoder.isHoldingEscape ? BrowseRunner.escapeWaitMilliseconds
                // Without a database there is nothing to check: wake for the ages only.
                : wake?.timeoutMilliseconds() ?? Self.idleMilliseconds
            let ready = poll(&fds, nfds_t(fds.count), timeout)
            if ready < 0, errno != EINTR {
                return .failure("timeline: browse stopped: poll failed (\(String(cString: strerror(errno)))).\n", ExitStatus.failure)
            }
            if fds[0].revents & Int16(POLLIN) != 0 {
                for signal in FollowSignals.drain(signals) {
                    if FollowSignals.ending.contains(signal) { return .signal(signal) }
                    if signal == FollowSignals.resize {
                        if let size = Terminal.windowSize() { view.resize(columns: size.columns, rows: size.rows) }
                        repaintAll()
                        redrawPictures()
                    } else if signal == FollowSignals.suspend {
                        terminal.suspend()
                        FollowSignals.stopUntilContinued()
                        terminal.resume()
                        if let size = Terminal.windowSize() { view.resize(columns: size.columns, rows: size.rows) }
                        repaintAll()
                    }
                }
            }
            // The terminal went away (its window closed without a SIGHUP reaching us).
            if fds[1].revents & Int16(POLLHUP | POLLERR | POLLNVAL) != 0 { return .signal(SIGHUP) }
            if fds[1].revents & Int16(POLLIN) != 0 {
                var buffer = [UInt8](repeating: 0, count: 1024)
                let count = buffer.withUnsafeMutableBytes { read(BrowseTerminal.input, $0.baseAddress, $0.count) }
                if count == 0 { return .signal(SIGHUP) }
                if count > 0 { decoder.feed(buffer[..<count]) }
            } else if ready == 0, decoder.isHoldingEscape {
                decoder.flush()
            }
            // Keys read while the terminal was asked about pictures are fed back meanwhile: the
            // loop goes on until none is left.
            var keys = decoder.keys()
            while !keys.isEmpty {
                for key in keys {
                    let showedPictures = view.pictureLayout != nil
                    for effect in view.handle(key) {
                        if let ending = perform(effect) { return ending }
                    }
                    if showedPictures, view.pictureLayout == nil {
                        pictureDrawer.takeOff()
                        repaintAll()
                    }
                    if key == .control("l") { painted = [] }
                }
                keys = decoder.keys()
            }
            if wake?.isNotified == true, fds.count > 2, fds[2].revents & Int16(POLLIN) != 0 { wake?.noteWrite() }
            checkForChanges()
            if FollowLoop.milliseconds() >= ageRefreshAt {
                ageRefreshAt = FollowLoop.milliseconds() + FollowLoop.ageRefreshMilliseconds
                view.refresh(now: Date())
            }
            paint()
        }
    }

    /// Asks the watcher whether the database moved, and shows what it did.
    private mutating func checkForChanges() {
        guard let watcher, let store else { return }
        do throws(TimelineStoreError) {
            guard let changes = try watcher.check(), !changes.isEmpty || changes.countsChanged else { return }
            if view.isUnreadOnly {
                let loaded = max(view.listings[0].page.messages.count, Self.pageSize)
                view.replaceTimeline(try store.timeline(limit: loaded, filter: TimelineFilter(unreadOnly: true)), unreadOnly: true)
            } else {
                view.updateTimeline(window: changes.window)
            }
            refreshSnapshot()
        } catch {
            // Another process holds the database: the next tick looks again.
            if case .busy = error { return }
            view.show(note: "not updated: \(error)")
        }
    }

    // MARK: Effects

    /// Does what the view asked; an ending when it asked to quit.
    private mutating func perform(_ effect: BrowseEffect) -> Ending? {
        if case .quit = effect { return .quit }
        if case let .open(url) = effect {
            open(url)
            return nil
        }
        if case let .showPictures(pictures) = effect {
            showPictures(pictures)
            return nil
        }
        guard let store else {
            view.show(note: "there is no database to read this from")
            return nil
        }
        switch effect {
        case let .act(action, id):
            act(action, on: id, in: store)
            return nil
        case let .reply(id):
            reply(to: id, in: store)
            return nil
        case let .moderate(moderation, id):
            moderate(moderation, messageID: id, in: store)
            return nil
        default:
            break
        }
        do throws(TimelineStoreError) {
            switch effect {
            case .quit, .open, .showPictures, .act, .reply, .moderate:
                break
            case let .setRead(ids, read):
                try store.markRead(ids: ids, read: read)
            case let .loadOlder(cursor, unreadOnly):
                let page = unreadOnly
                    ? try store.timeline(limit: Self.pageSize, filter: TimelineFilter(unreadOnly: true, beforeID: cursor.id))
                    : try store.timeline(limit: Self.pageSize, after: cursor)
                view.appendOlder(page)
            case let .reload(unreadOnly):
                if unreadOnly {
                    view.replaceTimeline(try store.timeline(limit: Self.pageSize, filter: TimelineFilter(unreadOnly: true)), unreadOnly: true)
                } else if let window = watcher?.baseline.window {
                    view.replaceTimeline(window, unreadOnly: false)
                } else {
                    view.replaceTimeline(try store.timeline(limit: Self.pageSize), unreadOnly: false)
                }
            case let .searchStore(query):
                view.showSearch(try store.search(query, limit: Self.searchLimit))
            case let .thread(id):
                let thread = try store.thread(around: id)
                let focus = thread.entries.first { $0.message.id == id }?.message
                let name = focus.map { $0.shortReference.isNone ? $0.id : $0.shortReference.text } ?? id
                view.showThread(thread, named: name)
            }
        } catch {
            view.show(note: "\(error)")
        }
        return nil
    }

    // MARK: Acting at the server (f, b, r)

    /// The session that acts on the stored message `id` (the account whose server it came
    /// from), or `nil` with the reason on the status line.
    private mutating func session(for id: String, verb: String, in store: TimelineStore) -> (any AccountSession)? {
        guard let loaded = loadedSessions(verb: verb) else { return nil }
        switch loaded.choose(for: id, named: MessageSessions.reference(of: id, in: store)) {
        case let .success(session): return session
        case let .failure(refusal): view.show(note: refusal.message)
        }
        return nil
    }

    /// Every logged-in account's session, `verb` saying what is done for the refusals; `nil`
    /// with the reason on the status line when there is none.
    private mutating func loadedSessions(verb: String) -> MessageSessions? {
        // A person waits at the view as at a command: one retry, soon (what cannot be sent waits
        // for the next sync).
        if sessions == nil { sessions = MessageSessions.load(account: nil, verb: verb, policy: OutboxRequest.policy) }
        switch sessions {
        case var .success(loaded)?:
            loaded.verb = verb
            return loaded
        case let .failure(refusal)?:
            view.show(note: refusal.message)
        case nil:
            break
        }
        return nil
    }

    /// `f` and `b`: the action at the server, the screen painted first with what is under way;
    /// the entry's mark and counts, or the reason it failed, after.
    private mutating func act(_ action: MessageAction, on id: String, in store: TimelineStore) {
        guard let session = session(for: id, verb: action.rawValue, in: store) else { return }
        if let refusal = session.refusal(of: SourceAction(action.kind)) {
            view.show(note: "\(refusal)")
            return
        }
        paint()
        do {
            let outcome = try waitFor { [action] () async throws -> MessageActionOutcome in try await session.act(action, on: id, in: store) }
            view.applied(outcome, message: try? store.message(id: outcome.messageID))
        } catch {
            view.show(note: "could not \(action.rawValue): \(error)")
        }
    }

    /// `r`: the reply written in the person's editor, the terminal given back to them meanwhile
    /// (the normal screen, their settings) and taken again after, then posted as the account
    /// whose server the message came from, through the outbox: one whose server cannot be
    /// reached is kept for the next sync, its pictures copied as `post --image` copies them. A
    /// reply not posted (refused by the server, a picture refused) is kept for the session:
    /// `r` on the same message opens the editor on it again with the reason.
    private mutating func reply(to id: String, in store: TimelineStore) {
        guard let session = session(for: id, verb: "reply to", in: store) else { return }
        let unsent = unsentReply?.to == id ? unsentReply : nil
        terminal.suspend()
        let written = Result { () throws(DraftEditor.Failure) -> String in
            try DraftEditor.edit(.reply, text: unsent?.text ?? "", help: DraftFile.help(
                for: .reply, about: PostCommand.quotable(id, in: store), takesPictures: true, notPosted: unsent?.reason))
        }
        terminal.resume()
        if let size = Terminal.windowSize() { view.resize(columns: size.columns, rows: size.rows) }
        repaintAll()
        let contents: String
        switch written {
        case let .success(value): contents = value
        case let .failure(failure):
            view.show(note: "\(failure)")
            return
        }
        // What the person wrote, the picture lines with it: what `r` opens again.
        let text = DraftFile.text(from: contents)
        guard !text.isEmpty else {
            view.show(note: "\(DraftEditor.Failure.empty(.reply))")
            return
        }
        let pictures: DraftPictures
        do throws(DraftPictures.Failure) {
            pictures = try DraftPictures.read(contents)
        } catch {
            keepUnsent(to: id, text: text, reason: "\(error)")
            return
        }
        var draft = PostDraft(text: pictures.text, replyTo: id, languages: PostDraft.languages(locale: Terminal.environment))
        draft.pictures = pictures.pictures(home: Terminal.environment("HOME"))
        if let refusal = session.account.network.capabilities.refusal(of: draft) {
            keepUnsent(to: id, text: text, reason: refusal)
            return
        }
        view.show(note: draft.pictures.isEmpty ? "posting the reply…" : "posting the reply with \(Counted(draft.pictures.count, "picture"))…")
        paint()
        do {
            // Through the outbox (issue 27): a reply whose server cannot be reached is kept for
            // the next sync (painted ⋯ pending), not lost when the view ends.
            let outcome = try waitFor { [draft] () async throws -> OutboxOutcome in try await session.perform(.post(draft), in: store) }
            unsentReply = nil
            switch outcome.delivery {
            case let .done(.posted(message, _, media)):
                let posted = (try? store.message(id: message.id)) ?? message
                let pictured = media.isEmpty ? "" : " with \(Counted(media.count, "picture"))"
                view.show(note: "replied: posted \(posted.shortReference.isNone ? posted.id : posted.shortReference.text)\(pictured)")
            case .waiting:
                view.show(note: "the reply is kept (⋯ pending): the next `timeline sync` sends it")
            case .done:
                break
            }
        } catch let kept as OutboxEntryKept {
            unsentReply = nil
            view.show(note: "the reply is kept; the first sync after this is put right sends it: \(kept.reason)")
        } catch {
            // A refused picture is named by its line, where the person changes it.
            let line = (error as? PictureError)?.file.flatMap(pictures.line(of:))
            keepUnsent(to: id, text: text, reason: (line.map { "line \($0): " } ?? "") + "\(error)")
        }
    }

    /// A reply not posted: kept with `reason` for `r` to open again, and said.
    private mutating func keepUnsent(to id: String, text: String, reason: String) {
        unsentReply = (id, text, reason)
        view.show(note: "the reply was not posted (r opens it again): \(reason)")
    }

    // MARK: Muting, blocking, reporting (M, B, R)

    /// `M`, `B` and `R` once the person said yes: the mute or block as `timeline mute` and
    /// `block` make it (through the outbox: kept for the next sync offline, the posts hidden here
    /// at once either way), then the timeline read again without the account's posts; the
    /// report as `timeline report` sends it, at once or not at all.
    private mutating func moderate(_ moderation: BrowseModeration, messageID id: String, in store: TimelineStore) {
        let reference = MessageSessions.reference(of: id, in: store)
        // A report names the post, which its account's session sends as `timeline report` does.
        if case let .report(reason) = moderation {
            guard let session = session(for: id, verb: "report", in: store) else { return }
            paint()
            do {
                _ = try waitFor { () async throws -> ReportOutcome in try await session.report(id, reason: reason, comment: nil, in: store) }
                view.show(note: "reported \(reference) (\(reason.rawValue)) to the moderators of \(session.account.name)'s server")
            } catch {
                view.show(note: ReportCommand.notSent(reference, error: error))
            }
            return
        }
        let verb = moderation == .mute ? "mute" : "block"
        guard let loaded = loadedSessions(verb: verb) else { return }
        let author: (handle: String, user: User, session: any AccountSession)
        switch ModerationTarget.author(of: id, named: reference, among: loaded, in: store) {
        case let .success(found): author = found
        case let .failure(refusal):
            view.show(note: refusal.message)
            return
        }
        paint()
        let session = author.session
        let named = "@" + author.user.handle
        let change: OutboxEntry.Change = moderation == .mute ? .mute(handle: author.handle, until: nil) : .block(handle: author.handle)
        let done = moderation == .mute ? "muted" : "blocked"
        let note: String
        do {
            let outcome = try waitFor { () async throws -> OutboxOutcome in
                try await session.moderate(change, userIDs: [author.user.id], in: store)
            }
            if case let .done(.moderated(answer)) = outcome.delivery, !answer.changed {
                note = "\(named) was \(done) already"
            } else if case let .waiting(reason) = outcome.delivery {
                note = "\(done) here; the \(verb) of \(named) is sent by the next sync (\(reason))"
            } else {
                note = "\(done) \(named)"
            }
        } catch let kept as OutboxEntryKept {
            note = "\(done) here; the \(verb) of \(named) is kept, and the first sync after this is put right sends it: \(kept.reason)"
        } catch {
            view.show(note: "could not \(verb) \(named): \(error) Nothing was changed.")
            return
        }
        // The store hides the account's posts now: the timeline is read again without them.
        do throws(TimelineStoreError) {
            let loaded = max(view.listings[0].page.messages.count, Self.pageSize)
            view.replaceAfterHiding(try store.timeline(limit: loaded, filter: TimelineFilter(unreadOnly: view.isUnreadOnly)))
        } catch {
            view.show(note: "\(note); the view could not be read again: \(error)")
            return
        }
        view.show(note: note)
    }

    /// `p`: the picture screen painted with the alt texts first, then, on a terminal that draws
    /// pictures, each fetched, checked and drawn in its rectangle, or its reason given.
    private mutating func showPictures(_ asked: BrowsePictures) {
        decoder.feed(pictureDrawer.detect())
        var pictures = asked
        let graphics = pictureDrawer.graphics ?? .none
        pictures.drawsPictures = graphics != .none
        view.showPictures(pictures)
        guard pictures.drawsPictures else {
            view.show(note: "this terminal draws no pictures (kitty, iTerm2 or sixel): 1–\(pictures.items.count) opens one")
            paint()
            return
        }
        view.show(note: "fetching \(Counted(pictures.items.count, "picture"))…")
        repaintAll()
        let fetched = pictureDrawer.fetch(pictures)
        var checked = fetched.pictures
        view.showPictures(checked)
        guard let layout = view.pictureLayout else { return }
        let output = pictureDrawer.encode(fetched.files, layout: layout, pictures: &checked)
        view.showPictures(checked)
        let drawn = checked.items.filter { $0.problem == nil }.count
        view.show(note: "\(Counted(drawn, "picture")) of \(checked.items.count) drawn (\(graphics))")
        paint()
        pictureDrawer.draw(output)
    }

    /// After a resize the pictures' rectangles moved: kitty's are taken off and all drawn again
    /// in the new ones (from the cache: no request for what was fetched).
    private mutating func redrawPictures() {
        guard case let .pictures(shown) = view.mode else { return }
        pictureDrawer.takeOff()
        var pictures = shown
        for index in pictures.items.indices { pictures.items[index].problem = nil }
        showPictures(pictures)
    }

    private mutating func open(_ url: String) {
        switch BrowseOpener.open(url, terminal: terminal) {
        case let .opened(with: opener):
            view.show(note: "opened with \(opener): \(url)")
            painted = []
        case let .failed(reason):
            view.show(note: "\(reason): \(url)")
            painted = []
        case .noBrowser:
            view.show(note: "no browser here (set $BROWSER): \(url)")
        case .notAWebAddress:
            view.show(note: "not a web address, not opened: \(url)")
        }
    }

    // MARK: Output

    /// Writes the lines of the screen that differ from those on it, in one write.
    mutating func paint() {
        let lines = view.screen()
        var output = ""
        for (row, line) in lines.enumerated() where row >= painted.count || painted[row] != line {
            // Erased first: with autowrap off, an erase after a line as wide as the window
            // would take its last character (the cursor stays on the last column).
            output += "\u{1b}[\(row + 1);1H\u{1b}[2K" + line
        }
        painted = lines
        if !output.isEmpty { Terminal.emit(output) }
    }

    /// Clears the screen and writes all of it (after a resize, a return from Ctrl-Z, Ctrl-L).
    mutating func repaintAll() {
        painted = []
        Terminal.emit("\u{1b}[H\u{1b}[2J")
        paint()
    }

    /// Brings the snapshot up to date, so that the next `show` paints what this view shows.
    /// A failure is noted once.
    mutating func refreshSnapshot() {
        guard let store, let watcher else { return }
        do throws(TimelineStoreError) {
            try store.writeSnapshot(lockTimeout: .milliseconds(BusyTimeout.showDefault), reusing: watcher.baseline)
        } catch {
            if snapshotNoteShown { return }
            snapshotNoteShown = true
            view.show(note: "could not refresh the snapshot: \(error)")
        }
    }
}
