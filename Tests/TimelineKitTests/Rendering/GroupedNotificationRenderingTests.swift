import Foundation
import Testing
@testable import TimelineKit

/// Issue 37: a group of notifications (Mastodon 4.3) is said by its first account and how many more.
@Suite struct GroupedNotificationRenderingTests {
    @Test func aGroupNamesItsFirstAccountAndCountsTheOthers() {
        let post = Message(id: "x/2", authorID: "x/9", text: "Shipping today", createdAt: Date(timeIntervalSince1970: 0))
        let alice = User(id: "x/1", handle: "alice", name: "Alice")
        func sentence(_ kind: NotificationKind, count: Int, message: Message? = nil) -> String {
            NotificationRenderer().sentence(for: TimelineNotification(account: "me", serverID: "1", kind: kind, createdAt: Date(timeIntervalSince1970: 0),
                                                                      actor: alice, message: message, count: count))
        }
        #expect(sentence(.favourite, count: 13, message: post) == #"♥ Alice and 12 others liked your post "Shipping today""#)
        #expect(sentence(.reblog, count: 2, message: post) == #"⇄ Alice and 1 other boosted your post "Shipping today""#)
        #expect(sentence(.follow, count: 1_501) == "+ Alice and 1,500 others followed you")
        #expect(sentence(.follow, count: 1) == "+ Alice followed you")
        #expect(TimelineNotification(account: "me", serverID: "1", kind: .follow, createdAt: Date(), count: -4).count == 1)
    }
}
