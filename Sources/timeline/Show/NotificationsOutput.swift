#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
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
        if !json && Terminal.standardOutputIsTerminal {
            markSeen(accounts: Set(notifications.map(\.account)), at: now, store: store)
        }
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
