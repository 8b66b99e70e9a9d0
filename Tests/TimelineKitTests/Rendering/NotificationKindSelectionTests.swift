import Foundation
import Testing
@testable import TimelineKit

/// `show --notifications --only KINDS` (issue 37): the words a person may type for the kinds of
/// notification, and the line's short reference.
@Suite struct NotificationKindSelectionTests {
    @Test func pluralsSingularsAndOtherNetworksWordsNameTheSameKinds() throws {
        #expect(try NotificationKindSelection(parsing: "mentions").kinds == [.mention])
        #expect(try NotificationKindSelection(parsing: "mention,replies").kinds == [.mention, .reply])
        #expect(try NotificationKindSelection(parsing: " Follows , likes,boost ").kinds == [.follow, .favourite, .reblog])
        #expect(try NotificationKindSelection(parsing: "reposts,edits,follow_requests,polls,quotes,statuses").kinds
            == [.reblog, .update, .followRequest, .poll, .quote, .status])
    }

    @Test func anUnknownWordIsRefusedNamingTheWordsThatWork() {
        #expect(throws: NotificationKindSelectionError.unknown("hugs")) { try NotificationKindSelection(parsing: "mentions,hugs") }
        #expect(throws: NotificationKindSelectionError.empty) { try NotificationKindSelection(parsing: "") }
        #expect(throws: NotificationKindSelectionError.empty) { try NotificationKindSelection(parsing: "mentions,,follows") }
        let message = NotificationKindSelectionError.unknown("\u{1B}[2Jhugs").description
        #expect(message.hasPrefix(#""\u001b[2Jhugs" is not a kind of notification: use mentions, replies, quotes, favourites, boosts, follows"#))
        #expect(!message.unicodeScalars.contains { $0.value == 0x1B })
    }

    @Test func aLineEndsWithItsPostsReferenceAndKeepsItWhenNarrowed() {
        var post = Message(id: "x/2", authorID: "x/1", text: String(repeating: "word ", count: 30), createdAt: Date(timeIntervalSince1970: 0))
        post.shortReference = ShortReference(sequence: 8_000)
        let notification = TimelineNotification(account: "me", serverID: "1", kind: .mention, createdAt: Date(timeIntervalSince1970: 0),
                                                actor: User(id: "x/1", handle: "carol", name: "Carol"), message: post)
        let now = Date(timeIntervalSince1970: 180)
        #expect(NotificationRenderer(excerptWidth: 12).line(for: notification, now: now) == #"@ Carol mentioned you: "word word w…" · 3m · cbbb"#)
        let narrow = NotificationRenderer().line(for: notification, now: now, width: 40)
        #expect(narrow.hasSuffix(" · 3m · cbbb") && DisplayWidth.of(narrow) <= 40, "\(narrow)")
        let follow = TimelineNotification(account: "me", serverID: "2", kind: .follow, createdAt: Date(timeIntervalSince1970: 0),
                                          actor: User(id: "x/1", handle: "carol", name: "Carol"))
        #expect(NotificationRenderer().line(for: follow, now: now) == "+ Carol followed you · 3m")
    }
}
