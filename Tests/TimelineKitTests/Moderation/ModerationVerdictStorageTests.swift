import Foundation
import Testing
@testable import TimelineKit

/// What the person chose not to see is decided when a message is written and stored with it
/// (issue 34): hidden messages are in no reader's answer and never in the snapshot file;
/// collapsed ones carry their reason; a change of the rules re-decides what is stored.
@Suite struct ModerationVerdictStorageTests {
    private func ids(_ page: TimelinePage) -> [String] { page.messages.map(\.id) }

    @Test func aMutedAccountsStoredPostsLeaveEveryTimelineAndTheSnapshotAtOnceAndComeBackWhenUnmuted() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3) + [Samples.message(4, author: Samples.bob, text: "bob speaks"),
                                                              Samples.message(5, author: Samples.bob)])
        #expect(try store.state().unreadCount == 5)

        let change = try store.updateModerationRules(account: "alice@example.social") { $0.mutedAccounts[Samples.bob.id] = .some(nil) }
        #expect(change == ModerationChange(hidden: 2, rulesChanged: true))
        #expect(ids(try store.timeline(limit: 10)) == ["m3", "m2", "m1"])
        #expect(try store.snapshotFile.read().window.messages.map(\.id) == ["m3", "m2", "m1"])
        #expect(try store.search("bob").page.messages.isEmpty)
        // Looked up by its ID, it says why it is not painted; it no longer waits to be read.
        #expect(try store.message(id: "m4")?.hiddenBecause == "muted account")
        #expect(try store.state().unreadCount == 3)

        let undo = try store.updateModerationRules(account: "alice@example.social") { $0.mutedAccounts[Samples.bob.id] = nil }
        #expect(undo == ModerationChange(shown: 2, rulesChanged: true))
        #expect(ids(try store.timeline(limit: 10)) == ["m5", "m4", "m3", "m2", "m1"])
        #expect(try store.snapshotFile.read().window.messages.map(\.id) == ["m5", "m4", "m3", "m2", "m1"])
    }

    @Test func theSameRulesStoredTwiceChangeNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1, author: Samples.bob)])
        try store.updateModerationRules(account: "a") { $0.blockedAccounts.insert(Samples.bob.id) }
        let generation = try store.state().generation
        #expect(try store.updateModerationRules(account: "a") { $0.blockedAccounts.insert(Samples.bob.id) } == ModerationChange())
        #expect(try store.state().generation == generation)
        #expect(try store.moderationRules(account: "a").blockedAccounts == [Samples.bob.id])
        #expect(try store.moderationRules(account: "other") == .none)
    }

    @Test func aNewMessageOfAMutedAccountIsStoredHiddenAndNeverCountedUnread() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.updateModerationRules(account: "a") { $0.blockedAccounts.insert(Samples.bob.id) }
        try store.upsert(messages: [Samples.message(1), Samples.message(2, author: Samples.bob)])
        #expect(ids(try store.timeline(limit: 10)) == ["m1"])
        #expect(try store.message(id: "m2")?.hiddenBecause == "blocked account")
        #expect(try store.state().unreadCount == 1)
        #expect(try store.snapshotFile.read().window.messages.map(\.id) == ["m1"])
    }

    /// A boost of a muted account's post is hidden with it, whichever of the two a page lists
    /// first, and a boost of a post the rules hide for its words too.
    @Test(arguments: [true, false]) func aRepostOfAHiddenPostIsHiddenWhicheverComesFirst(originalFirst: Bool) throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.updateModerationRules(account: "a") {
            $0.mutedAccounts[Samples.bob.id] = .some(nil)
            $0.mutedWords = [MutedWord(value: "spoiler")]
        }
        let original = Samples.message(1, author: Samples.bob)
        var repost = Message(id: "m2", authorID: Samples.alice.id, text: "", createdAt: Samples.epoch.addingTimeInterval(120),
                             repostOfID: "m1")
        let worded = Samples.message(3, text: "a Spoiler, here")
        var wordedRepost = repost
        wordedRepost.id = "m4"
        wordedRepost.repostOfID = "m3"
        wordedRepost.createdAt = Samples.epoch.addingTimeInterval(240)
        repost.createdAt = Samples.epoch.addingTimeInterval(120)
        let all = originalFirst ? [original, repost, worded, wordedRepost] : [repost, original, wordedRepost, worded]
        try store.upsert(messages: all)
        #expect(try store.timeline(limit: 10).messages.isEmpty)
        #expect(try store.message(id: "m2")?.hiddenBecause == "muted account")
        #expect(try store.message(id: "m4")?.hiddenBecause == "muted word")
    }

    @Test func aMutedWordHidesWhatIsStoredAndWhatComesAndEndsWhenItExpires() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1, text: "Cats are great"), Samples.message(2, text: "concatenate")])
        let now = Samples.epoch
        let change = try store.updateModerationRules(account: "a", now: now) {
            $0.mutedWords = [MutedWord(value: "cats", expiresAt: now.addingTimeInterval(3600))]
        }
        #expect(change.hidden == 1)
        #expect(ids(try store.timeline(limit: 10)) == ["m2"])
        // An hour later, any change of the rules drops the word and paints what it hid.
        let later = try store.updateModerationRules(account: "a", now: now.addingTimeInterval(7200)) { _ in }
        #expect(later.shown == 1)
        #expect(try store.moderationRules(account: "a").mutedWords.isEmpty)
        #expect(ids(try store.timeline(limit: 10)) == ["m2", "m1"])
    }

    @Test func aServerFilterThatWarnsCollapsesAndOneThatHidesHides() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var warned = Samples.message(1)
        warned.moderation = ModerationFacts(filterMatches: [FilterMatch(title: "Politics", action: .warn)])
        var hidden = Samples.message(2)
        hidden.moderation = ModerationFacts(filterMatches: [FilterMatch(title: "Spoilers", action: .hide)])
        try store.upsert(messages: [warned, hidden])
        let page = try store.timeline(limit: 10)
        #expect(ids(page) == ["m1"])
        #expect(page.messages[0].warning == "Filtered: Politics")
        #expect(page.messages[0].moderation == warned.moderation)
        #expect(try store.snapshotFile.read().window.messages[0].warning == "Filtered: Politics")
        #expect(try store.message(id: "m2")?.hiddenBecause == "Filtered: Spoilers")
    }

    /// `warning` is the store's verdict: a caller's own value does not survive the write.
    @Test func aWarningGivenToTheStoreIsReplacedByTheRulesVerdict() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var message = Samples.message(1)
        message.warning = "made up"
        try store.upsert(messages: [message])
        #expect(try store.timeline(limit: 1).messages[0].warning == nil)
    }

    @Test func globalLabelsHideAndWarnWithNoPreferenceSet() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var hidden = Samples.message(1)
        hidden.moderation = ModerationFacts(labels: [ContentLabel(source: "did:plc:ar7c4by46qjdydhdevvrndac", value: "!hide")])
        var warned = Samples.message(2)
        warned.moderation = ModerationFacts(labels: [ContentLabel(source: "did:plc:ar7c4by46qjdydhdevvrndac", value: "!warn")])
        // A labeler the person does not subscribe to is not listened to, as in Bluesky's app.
        var ignored = Samples.message(3)
        ignored.moderation = ModerationFacts(labels: [ContentLabel(source: "did:plc:unsubscribed", value: "!hide")])
        try store.upsert(messages: [hidden, warned, ignored])
        let page = try store.timeline(limit: 10)
        #expect(ids(page) == ["m3", "m2"])
        #expect(page.messages[1].warning != nil)
        #expect(page.messages[0].warning == nil)
    }

    @Test func visibilityIsStoredAndReadBackAndAnUnknownOneReadsAsPublic() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var direct = Samples.message(1)
        direct.visibility = .direct
        try store.upsert(messages: [direct, Samples.message(2)])
        #expect(try store.message(id: "m1")?.visibility == .direct)
        #expect(try store.message(id: "m2")?.visibility == nil)
        try SQLiteShell.run(directory.file("timeline.sqlite"), "UPDATE messages SET visibility = 'local' WHERE id = 'm2'")
        #expect(try store.message(id: "m2")?.visibility == .public)
    }

    /// Facts another program wrote that do not read are no facts, not an unreadable timeline.
    @Test func theModerationColumnReadsBackAndForgivesWhatItCannotRead() {
        let facts = ModerationFacts(labels: [ContentLabel(source: "did:plc:x", value: "porn", isOnAuthor: true)],
                                    filterMatches: [FilterMatch(title: "a \"quoted\" title", action: .blur),
                                                    FilterMatch(title: "t", action: .hide, filterID: "social.example/7")])
        let json = ModerationColumn.encode(facts)
        #expect(json == #"{"filters":[{"action":"blur","title":"a \"quoted\" title"},{"action":"hide","id":"social.example/7","title":"t"}],"labels":[{"author":true,"src":"did:plc:x","val":"porn"}]}"#)
        #expect(ModerationColumn.decode(json) == facts)
        #expect(ModerationColumn.encode(.none) == nil)
        #expect(ModerationColumn.decode("not json") == .none)
        #expect(ModerationColumn.decode(#"{"filters":[{"title":"t","action":"explode"}]}"#).filterMatches == [FilterMatch(title: "t", action: .warn)])
    }

    /// A post its server filtered is stored hidden; when the person deletes that filter on the
    /// server, the next read of the server's filters shows the stored post again: the filter's
    /// ID must survive the trip through the `moderation` column for that.
    @Test func aStoredPostFilteredByAFilterTheServerNoLongerHasIsShownAgain() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.updateModerationRules(account: "a") {
            $0.serverFilters = ["social.example/7": nil]
            $0.serverFiltersRead = ["social.example"]
        }
        var filtered = Samples.message(1)
        filtered.moderation.filterMatches = [FilterMatch(title: "Spoilers", action: .hide, filterID: "social.example/7")]
        try store.upsert(messages: [filtered, Samples.message(2)])
        #expect(ids(try store.timeline(limit: 10)) == ["m2"])

        let change = try store.updateModerationRules(account: "a") { $0.serverFilters = [:] }
        #expect(change.shown == 1)
        #expect(ids(try store.timeline(limit: 10)) == ["m2", "m1"])
    }

    @Test func notificationsAboutHiddenPostsOrFromMutedAccountsAreLeftOut() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1), Samples.message(2)])
        try SQLiteShell.run(directory.file("timeline.sqlite"), """
            INSERT INTO synced_entries (account, timeline, position, id, message_id, type, created_at, actor_id) VALUES
                ('a', 'notifications', 1, 'n1', 'm1', 'favourite', 1, 'u1'),
                ('a', 'notifications', 2, 'n2', 'm2', 'favourite', 2, 'u1'),
                ('a', 'notifications', 3, 'n3', NULL, 'follow', 3, 'u2');
            """)
        #expect(try store.notifications(limit: 10).map(\.serverID) == ["n3", "n2", "n1"])
        try store.updateModerationRules(account: "a") {
            $0.mutedAccounts[Samples.bob.id] = .some(nil)
            $0.hiddenPosts = ["m2"]
        }
        #expect(try store.notifications(limit: 10).map(\.serverID) == ["n1"])
        // A page of one is the newest one left, not the newest row left out.
        #expect(try store.notifications(limit: 1).map(\.serverID) == ["n1"])
    }
}
