#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import TimelineKit

/// `timeline show --notifications`: the notifications `sync` stored, newest first, one line
/// each saying who did what and naming the post it is about by its short reference
/// (`♥ Alice liked your post "…" · 3m · bkd`), or JSON Lines.
struct NotificationsOutput {
    let location: LocationOptions
    let limit: Int
    /// `--only`: the kinds shown; `nil` for all.
    let kinds: Set<NotificationKind>?
    let json: Bool
    let width: Int?

    func print() throws {
        let store = try location.openStore(create: false)
        let notifications = try reportingErrors { try store.notifications(kinds: kinds, limit: limit) }
        if notifications.isEmpty, !json {
            if kinds != nil {
                Terminal.emitError("timeline: no notifications of those kinds stored. `timeline sync` fetches new ones; without --only, every kind is shown.\n")
                return
            }
            Terminal.emitError("timeline: no notifications stored. `timeline sync` fetches them for your accounts.\n")
            return
        }
        let now = Date()
        // The quoted post takes what is left of the line once the sentence around it is said.
        let columns = width ?? Terminal.windowSize()?.columns ?? 80
        let renderer = NotificationRenderer(excerptWidth: max(20, columns - 40), symbols: Terminal.symbols)
        for notification in notifications {
            if json {
                var object = JSONObjectWriter()
                object.add("account", notification.account)
                object.add("id", notification.serverID)
                object.add("type", notification.kind.rawValue)
                object.add("created_at", notification.createdAt.formatted(.iso8601))
                if let actor = notification.actor {
                    object.add("actor_id", actor.id)
                    object.add("actor_handle", actor.handle)
                    object.add("actor_name", actor.name)
                }
                if let messageID = notification.messageID { object.add("message_id", messageID) }
                if let reference = notification.message?.shortReference, !reference.isNone { object.add("ref", reference.text) }
                object.add("text", renderer.sentence(for: notification))
                Terminal.emit(object.finish() + "\n")
            } else {
                Terminal.emit(renderer.line(for: notification, now: now, width: columns) + "\n")
            }
        }
        if !json { sayHeldBack(store: store) }
        if !json && Terminal.standardOutputIsTerminal {
            markSeen(accounts: Set(notifications.map(\.account)), at: now, store: store)
        }
    }

    /// Says under the list what the servers' filters held back at the last sync, and how to see
    /// it: a note, on standard error, so the lines stay the notifications.
    private func sayHeldBack(store: TimelineStore) {
        guard let heldBack = try? store.heldBackNotifications(), !heldBack.isEmpty else { return }
        for held in heldBack {
            let who = heldBack.count > 1 ? TerminalText.line(held.account) + ": " : ""
            Terminal.emitError("\(who)\(Counted(held.notifications, "notification")) from \(Counted(held.requests, "account")) held back by your server's filters: timeline show --notifications --requests\n")
        }
    }

    /// `--requests`: the accounts whose notifications each account's server holds back, asked of
    /// the servers that have them (Mastodon 4.3), newest first; an account whose server has no
    /// such list is named in one line, and the others are still listed.
    func printRequests() throws {
        let sessions = try FollowAccountArguments.sessions(doing: "listing held-back notifications")
        let able = sessions.filter { $0.refusal(of: .notificationRequests) == nil }
        guard !able.isEmpty else {
            Terminal.emitError("timeline: no account can \(SourceAction.notificationRequests): \(Account.Network.loginHint(for: .notificationRequests)).\n")
            throw ExitCode(ExitStatus.usage)
        }
        let store = try location.openStore(create: true)
        let now = Date()
        var failed: Int32?
        for session in able {
            let listed: (requests: [NotificationRequest], truncated: Bool)
            do {
                listed = try waitFor { [limit] () async throws in try await session.notificationRequests(limit: limit, in: store) }
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(session.account.name)): the held-back notifications could not be listed: \(error)\n")
                failed = exitStatus(for: error)
                continue
            }
            var text = ""
            if !json && able.count > 1 { text += TerminalText.line(session.account.name) + ":\n" }
            if !json && listed.requests.isEmpty { text += "No notification is held back for \(TerminalText.line(session.account.name)).\n" }
            for request in listed.requests {
                if json {
                    var object = JSONObjectWriter()
                    object.add("account", session.account.name)
                    object.add("handle", request.account.handle)
                    object.add("name", request.account.name)
                    object.add("id", request.account.id)
                    object.add("notifications", request.notifications)
                    object.add("updated_at", request.updatedAt.map { $0.formatted(.iso8601) })
                    text += object.finish() + "\n"
                    continue
                }
                let name = request.account.name.isEmpty ? "" : "  " + TerminalText.line(request.account.name)
                let age = request.updatedAt.map { Terminal.symbols.separator + RelativeTime.string(for: $0, now: now) } ?? ""
                text += "@" + TerminalText.line(request.account.handle) + name + ": " + Counted(request.notifications, "notification").description + age + "\n"
            }
            if listed.truncated && !json { text += "(the first \(Counted(limit, "account")); -n says how many)\n" }
            Terminal.emit(text)
        }
        if let failed { throw ExitCode(failed) }
    }

    /// Tells the servers that count notifications seen (Bluesky) that the ones a person just read
    /// on a terminal were seen, so their apps stop counting them (a script reading a pipe has not
    /// read them). One try of 5 s at most per account; a failure is a note, not an error: the
    /// notifications were shown.
    private func markSeen(accounts names: Set<String>, at date: Date, store: TimelineStore) {
        guard let accountStore = try? AccountStore.standard(), accountStore.hasAccountsFile,
              let accounts = try? accountStore.accounts() else { return }
        for account in accounts where account.network.refusal(of: .notificationsSeen) == nil && names.contains(account.name) {
            do {
                let session = try accountStore.session(for: account, transport: CurlTransport(), policy: ReadMarkerPush.policy)
                try waitFor { () async throws in try await session.markNotificationsSeen(at: date) }
            } catch {
                Terminal.emitError("timeline: \(TerminalText.line(account.name)): \(account.network.displayName) was not told these were seen (\(error)).\n")
            }
        }
    }
}
