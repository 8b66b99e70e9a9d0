import Foundation
import Testing
@testable import TimelineKit

@Suite struct MastodonNotificationTests {
    @Test func notificationsAreStoredWithWhoActedAndThePostAndReadNewestFirst() async throws {
        let fixture = try SyncFixture()
        let mine = fixture.server.post(2, text: "Shipping today")
        let theirs = fixture.server.statusElsewhere(text: "@me are you coming?")
        fixture.server.notify("favourite", actor: 1, statusID: mine[0])
        fixture.server.notify("reblog", actor: 2, statusID: mine[0])
        fixture.server.notify("mention", actor: 3, statusID: theirs)
        fixture.server.notify("follow", actor: 4)
        fixture.server.notify("follow_request", actor: 5)
        fixture.server.notify("poll", actor: 2, statusID: mine[1])
        fixture.server.notify("update", actor: 3, statusID: theirs)
        fixture.server.notify("status", actor: 1, statusID: mine[1])
        fixture.server.notify("pleroma:emoji_reaction", actor: 4, statusID: mine[1])
        let summary = try await fixture.run()
        #expect(summary.newNotifications == 9)
        #expect(try fixture.notificationIDs() == fixture.server.notificationIDs)

        let stored = try fixture.store.notifications(limit: 20)
        #expect(stored.map(\.serverID) == fixture.server.notificationIDs)
        #expect(stored.map(\.kind.rawValue) == ["pleroma:emoji_reaction", "status", "update", "poll", "follow_request", "follow",
                                                "mention", "reblog", "favourite"])
        let now = stored[0].createdAt.addingTimeInterval(180)
        // A line about a stored post ends with its short reference (issue 37), as a timeline line does.
        let lines = stored.map { notification in
            let line = NotificationRenderer().line(for: notification, now: now)
            guard let reference = notification.message?.shortReference.text else { return line }
            #expect(!reference.isEmpty && line.hasSuffix(" · " + reference), "\(line)")
            return String(line.dropLast(3 + reference.count))
        }
        #expect(lines == [
            #"· Person 4: pleroma:emoji_reaction "Shipping today 1" · 3m"#,
            #"• Person 1 posted: "Shipping today 1" · 3m"#,
            #"✎ Person 3 edited a post you boosted: "@me are you coming?" · 3m"#,
            #"▤ A poll by Person 2 has ended: "Shipping today 1" · 3m"#,
            "? Person 5 asked to follow you · 3m",
            "+ Person 4 followed you · 3m",
            #"@ Person 3 mentioned you: "@me are you coming?" · 3m"#,
            #"⇄ Person 2 boosted your post "Shipping today 0" · 3m"#,
            #"♥ Person 1 liked your post "Shipping today 0" · 3m"#,
        ])
        // The statuses they are about are stored as messages.
        #expect(try fixture.store.message(id: "social.example/" + theirs)?.isRead == false)
        #expect(stored.last?.message?.id == "social.example/" + mine[0])
        #expect(try fixture.store.notifications(account: "someone@else.example", limit: 5).isEmpty)
        // `--only`: the kinds asked for, chosen by the query, newest first.
        #expect(try fixture.store.notifications(kinds: [.mention, .follow], limit: 20).map(\.kind) == [.follow, .mention])
        #expect(try fixture.store.notifications(kinds: [.favourite], limit: 1).map(\.serverID) == [fixture.server.notificationIDs.last])
        #expect(try fixture.store.notifications(kinds: [.quote], limit: 20).isEmpty)

        // Later syncs add only what is new.
        fixture.server.notify("follow", actor: 2)
        #expect(try await fixture.run().newNotifications == 1)
        #expect(try fixture.store.notifications(limit: 1).first?.kind == .follow)
    }

    @Test func theRendererNeutralisesNamesAndTextsAndCutsLongPosts() {
        let hostile = User(id: "x/1", handle: "evil\u{1B}[2J", name: "Mallory\u{1B}]0;pwned\u{07}\u{202E}gpj.exe")
        let post = Message(id: "x/2", authorID: "x/1", text: "line one\nline two \u{1B}[31mred " + String(repeating: "long ", count: 30),
                           createdAt: Date(timeIntervalSince1970: 0))
        let notification = TimelineNotification(account: "me", serverID: "1", kind: .mention, createdAt: Date(timeIntervalSince1970: 0),
                                                actor: hostile, message: post)
        let sentence = NotificationRenderer(excerptWidth: 40).sentence(for: notification)
        #expect(sentence == #"@ Mallory␛]0;pwned␇gpj.exe mentioned you: "line one line two ␛[31mred long long lo…""#)
        #expect(!sentence.unicodeScalars.contains { $0.value < 0x20 || (0x202A ... 0x202E).contains($0.value) })

        var warned = post
        warned.contentWarning = "spoilers"
        let folded = TimelineNotification(account: "me", serverID: "2", kind: .favourite, createdAt: .distantPast,
                                          actor: User(id: "x/3", handle: "bob", name: ""), message: warned)
        #expect(NotificationRenderer().sentence(for: folded) == #"♥ @bob liked your post "CW: spoilers""#)
        let gone = TimelineNotification(account: "me", serverID: "3", kind: .reblog, createdAt: .distantPast, messageID: "x/9")
        #expect(NotificationRenderer().sentence(for: gone) == "⇄ Someone boosted your post (a deleted post)")
    }

    @Test func realNotificationsOfEveryKindDecode() throws {
        // tokodon's notifications: quote, mention, status, reblog, follow, admin.sign_up,
        // admin.report, severed_relationships, moderation_warning.
        let bytes = try RealData.bytes("tokodon/notifications.json")
        let response = HTTPResponse(status: 200, body: bytes)
        let page = try FetchedPage.notifications(response, from: "https://tokodon.example/api/v1/notifications",
                                                 namespace: MastodonNamespace(server: try ServerAddress("tokodon.example")))
        #expect(page.notifications.map(\.kind.rawValue) == ["quote", "mention", "status", "reblog", "follow", "admin.sign_up",
                                                            "admin.report", "severed_relationships", "moderation_warning"])
        #expect(page.notifications.allSatisfy { $0.actorID?.hasPrefix("tokodon.example/") == true })
        #expect(page.notifications.map { $0.messageID != nil } == [true, true, true, true, false, false, false, false, false])
        #expect(page.olderCursor == page.entryIDs.last)  // no Link header: the last entry
    }
}
