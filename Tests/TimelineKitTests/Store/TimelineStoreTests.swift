import Foundation
import Testing
@testable import TimelineKit

@Suite struct TimelineStoreTests {
    @Test func upsertKeepsOneRowPerIDAndUpdatesItInPlace() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var message = Samples.message(1)
        try store.upsert(messages: [message])
        message.text = "edited text"
        message.editedAt = Samples.epoch.addingTimeInterval(600)
        message.likeCount = 7
        try store.upsert(messages: [message, message])

        #expect(try store.state().messageCount == 1)
        #expect(try SQLiteShell.run(directory.file("timeline.sqlite"), "SELECT count(*) FROM messages").trimmed == "1")
        #expect(try store.message(id: "m1") == message)
    }

    @Test func upsertOfAnUnchangedMessageLeavesTheGenerationAlone() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...5))
        let generation = try store.state().generation
        try store.upsert(users: [Samples.alice], messages: Samples.messages(1...5))
        #expect(try store.state().generation == generation)
    }

    /// The upsert's `IS NOT` comparison is made from the same column list as the insert: a
    /// change to any one stored column, whichever, is stored and moves the generation.
    @Test func upsertStoresAChangeToAnyOneColumnAndMovesTheGeneration() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let original = Message(id: "m1", authorID: Samples.alice.id, text: "text", createdAt: Samples.epoch)
        try store.upsert(messages: [original])
        let changes: [(String, (inout Message) -> Void)] = [
            ("author_id", { $0.authorID = "u2" }), ("text", { $0.text = "other" }),
            ("created_at", { $0.createdAt = Samples.epoch.addingTimeInterval(1) }),
            ("edited_at", { $0.editedAt = Samples.epoch }), ("reply_to_id", { $0.replyToID = "r" }),
            ("reply_to_user_id", { $0.replyToUserID = "u2" }), ("repost_of_id", { $0.repostOfID = "p" }),
            ("quote_of_id", { $0.quoteOfID = "q" }), ("content_warning", { $0.contentWarning = "cw" }),
            ("url", { $0.url = "https://example.social/1" }), ("attachments", { $0.attachments = [Attachment(kind: "image")] }),
            ("like_count", { $0.likeCount = 1 }), ("repost_count", { $0.repostCount = 1 }), ("reply_count", { $0.replyCount = 1 }),
            ("visibility", { $0.visibility = .direct }),
            ("moderation", { $0.moderation = ModerationFacts(labels: [ContentLabel(source: "did:plc:l", value: "spam")]) }),
            ("source", { $0.source = .feed }), ("links", { $0.links = ["https://example.org/article"] }),
        ]
        var columns = ColumnNames(), blank = Message.blank
        blank.visitColumns(&columns)
        // `warning` and `hidden` are the store's verdict, not the caller's: a given one is
        // replaced (`ModerationVerdictStorageTests`).
        #expect(changes.map(\.0).dropLast(2) + ["warning", "hidden", "source", "links"] == Array(columns.names.dropFirst()))
        for (column, change) in changes {
            var changed = original
            change(&changed)
            let generation = try store.state().generation
            try store.upsert(messages: [changed])
            #expect(try store.state().generation > generation, "\(column)")
            #expect(try store.message(id: "m1") == changed, "\(column)")
            try store.upsert(messages: [original])
        }
    }

    @Test func aRefetchKeepsTheReadFlagUnlessToldToOverwrite() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1)])
        try store.markRead(ids: ["m1"])
        var refetched = Samples.message(1)
        refetched.likeCount = 3
        try store.upsert(messages: [refetched])
        #expect(try store.message(id: "m1")?.isRead == true)
        #expect(try store.message(id: "m1")?.likeCount == 3)

        try store.upsert(messages: [refetched], readState: .overwrite)
        #expect(try store.message(id: "m1")?.isRead == false)
    }

    @Test func messagesRoundTripEveryField() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let original = Message(
            id: "109876543210987654321098765", authorID: "u2", text: "full\u{0}message ünïcødé 日本語 👩‍💻",
            createdAt: Date(timeIntervalSince1970: 1_795_000_000.123), editedAt: Date(timeIntervalSince1970: 1_795_000_100.5),
            replyToID: "1", replyToUserID: "u1", repostOfID: nil, quoteOfID: "q", contentWarning: "spoilers",
            url: "https://example.social/@bob/1",
            attachments: [Attachment(kind: "image", url: "https://example.social/a.png", altText: "a cat"),
                          Attachment(kind: "video")],
            likeCount: 1, repostCount: 2, replyCount: 3, isRead: true)
        try store.upsert(messages: [original], readState: .overwrite)
        #expect(try store.message(id: original.id) == original)
    }

    @Test func theTimelineIsNewestFirstWithTiesBrokenByIDAndPagesAreStable() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        // Five messages share one creation time, between m5 and m6: the ID decides, the same way
        // every time.
        var messages = Samples.messages(1...10)
        for id in ["t-a", "t-c", "t-b", "t-e", "t-d"] {
            messages.append(Message(id: id, authorID: "u1", text: id, createdAt: Samples.epoch.addingTimeInterval(330)))
        }
        try store.upsert(messages: messages.shuffled())

        var seen: [String] = []
        var cursor: TimelineCursor?
        repeat {
            let page = try store.timeline(limit: 4, after: cursor)
            seen += page.messages.map(\.id)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(seen == ["m10", "m9", "m8", "m7", "m6", "t-e", "t-d", "t-c", "t-b", "t-a", "m5", "m4", "m3", "m2", "m1"])
        #expect(try store.timeline(limit: 15).messages.map(\.id) == seen)
        #expect(try store.timeline(limit: 15).nextCursor == nil)
    }

    /// `timelineMessages` walks the same messages with the same cursors as `timeline`, page by
    /// page, without what a page adds (what `export` walks).
    @Test func timelineMessagesWalkTheTimelinesPagesWithoutWhatAPageAdds() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let original = Samples.message(1, author: Samples.bob)
        var repost = Samples.message(50, text: "")
        repost.repostOfID = original.id
        try store.upsert(messages: [original] + Samples.messages(2...40) + [repost])
        var cursor: TimelineCursor?
        var pages = 0
        repeat {
            let page = try store.timeline(limit: 7, after: cursor)
            let messages = try store.timelineMessages(limit: 7, after: cursor)
            #expect(messages.messages == page.messages)
            #expect(messages.nextCursor == page.nextCursor)
            cursor = page.nextCursor
            pages += 1
        } while cursor != nil
        #expect(pages == 6)
        #expect(try store.timelineMessages(limit: 41).messages.count == 41)
        #expect(try store.timelineMessages(limit: 41).nextCursor == nil)
        #expect(try store.timelineMessages(limit: 1).messages.map(\.id) == ["m50"])
    }

    @Test func aPageCarriesTheRepostedMessageAndEveryAuthorItShows() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let original = Samples.message(1, author: Samples.bob)
        var repost = Samples.message(50, text: "")
        repost.repostOfID = original.id
        var reply = Samples.message(51)
        reply.replyToUserID = Samples.bob.id
        try store.upsert(messages: [original] + Samples.messages(2...40) + [repost, reply])

        let page = try store.timeline(limit: 2)
        #expect(page.messages.map(\.id) == ["m51", "m50"])
        #expect(page.related == [original])
        #expect(page.users == [Samples.alice, Samples.bob])
    }

    @Test func countsFollowInsertsReadsAndDeletes() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...10))
        #expect(try store.state().messageCount == 10)
        #expect(try store.state().unreadCount == 10)
        #expect(try store.state().userCount == 2)
        #expect(try store.markRead(ids: ["m1", "m2", "m3", "nope"]) == 3)
        #expect(try store.state().unreadCount == 7)
        #expect(try store.deleteMessages(ids: ["m1", "m9"]) == 2)
        #expect(try store.state().messageCount == 8)
        #expect(try store.state().unreadCount == 6)
        #expect(try store.markAllRead() == 6)
        #expect(try store.state().unreadCount == 0)
    }

    @Test func markingTenThousandIDsReadRunsOneStatementLoadingNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(writesSnapshot: false))
        let messages = (1...12_000).map { Samples.message($0) }
        try store.upsert(messages: messages)
        let ids = messages.prefix(10_000).map(\.id)

        let statements = try store.write { transaction in
            let before = transaction.connection.statementRuns
            let changed = try transaction.markRead(ids: ids)
            #expect(changed == 10_000)
            return transaction.connection.statementRuns - before
        }
        #expect(statements == 1)
        #expect(try store.state().unreadCount == 2_000)
        // Marking them again changes nothing and moves nothing.
        let generation = try store.state().generation
        #expect(try store.markRead(ids: ids) == 0)
        #expect(try store.state().generation == generation)
    }

    @Test func aMessageWhoseAuthorIsUnknownRollsBackTheWholeTransaction() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let before = try store.state()
        let stranger = Message(id: "x1", authorID: "nobody", text: "hi", createdAt: Samples.epoch)
        #expect(throws: TimelineStoreError.unknownAuthor(messageID: "x1", authorID: "nobody")) {
            try store.upsert(messages: Samples.messages(1...3) + [stranger])
        }
        #expect(try store.state() == before)
    }

    @Test func aUserMayArriveAfterItsMessagesInTheSameTransaction() throws {
        let directory = TemporaryDirectory()
        let store = try TimelineStore(path: directory.file("timeline.sqlite"))
        try store.write { transaction in
            try transaction.upsert(messages: Samples.messages(1...3))
            try transaction.upsert(users: [Samples.alice])
        }
        #expect(try store.state().messageCount == 3)
    }

    @Test func anErrorThrownByTheWriteBodyRollsEverythingBack() throws {
        struct Stop: Error {}
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let before = try store.state()
        #expect(throws: Stop.self) {
            try store.write { transaction in
                try transaction.upsert(messages: Samples.messages(1...100))
                throw Stop()
            }
        }
        #expect(try store.state() == before)
        #expect(try store.timeline(limit: 10).messages.isEmpty)
    }

    @Test func idsThatLookLikeSQLAreStoredAsText() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let id = "1'); DROP TABLE messages; --"
        let message = Message(id: id, authorID: "u1", text: "\"]; DELETE FROM users; --", createdAt: Samples.epoch)
        try store.upsert(messages: [message])
        #expect(try store.markRead(ids: [id, "\"", "\\", "]"]) == 1)
        #expect(try store.message(id: id)?.text == message.text)
        #expect(try store.state().userCount == 2)
    }

    @Test func mastodonIDsLongerThanSixtyFourBitsStayExact() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let ids = ["99999999999999999999999", "09", "9", "AQetOIEp6Z2GZ4UiI4"]
        try store.upsert(messages: ids.map { Message(id: $0, authorID: "u1", text: $0, createdAt: Samples.epoch) })
        #expect(Set(try store.timeline(limit: 10).messages.map(\.id)) == Set(ids))
        #expect(try store.state().messageCount == 4)
    }

    @Test func aWriteThroughTheSQLiteShellChangesTheGeneration() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: Samples.messages(1...3))
        let path = directory.file("timeline.sqlite")
        var generation = try store.state().generation

        for sql in [
            "UPDATE messages SET text = 'typed by hand' WHERE id = 'm1'",
            "INSERT INTO messages (id, author_id, text, created_at) VALUES ('shell', 'u1', 'hi', 1795000000000)",
            "UPDATE users SET name = 'Alice Renamed' WHERE id = 'u1'",
            "DELETE FROM messages WHERE id = 'm2'",
        ] {
            try SQLiteShell.run(path, sql)
            let now = try store.state().generation
            #expect(now != generation, "\(sql)")
            generation = now
        }
        #expect(try store.state().messageCount == 3)
    }

    @Test func aWriterBlockedPastTheBusyTimeoutFailsWithAClearErrorAndChangesNothing() throws {
        let directory = TemporaryDirectory()
        let path = directory.file("timeline.sqlite")
        let store = try Samples.store(in: directory, configuration: .init(busyTimeout: .milliseconds(200)))
        let holder = try SQLiteConnection(path: path, mode: .readWrite)
        try holder.execute("BEGIN EXCLUSIVE")
        defer { try? holder.execute("ROLLBACK") }

        #expect(throws: TimelineStoreError.busy(path: path, waitedMilliseconds: 200)) {
            try store.upsert(messages: [Samples.message(1)])
        }
        // Readers are not blocked by the writer (WAL).
        #expect(try store.state().messageCount == 0)
        try holder.execute("ROLLBACK")
        try store.upsert(messages: [Samples.message(1)])
        #expect(try store.state().messageCount == 1)
    }

    @Test func emptyIDsAndNegativeCountsAreRefused() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var bad = Samples.message(1)
        bad.likeCount = -1
        #expect(throws: TimelineStoreError.invalidValue(field: #"likes of message "m1""#, reason: "-1 is negative")) {
            try store.upsert(messages: [bad])
        }
        #expect(throws: TimelineStoreError.invalidValue(field: "message id", reason: "it is empty")) {
            try store.upsert(messages: [Message(id: "", authorID: "u1", text: "", createdAt: Samples.epoch)])
        }
    }

    @Test func theStoreCanBeSharedAcrossConcurrentTasks() async throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory, configuration: .init(writesSnapshot: false))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    for batch in 0..<5 {
                        let base = worker * 1000 + batch * 10
                        try store.upsert(messages: Samples.messages(base + 1...base + 10))
                        _ = try store.timeline(limit: 20)
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(try store.state().messageCount == 200)
    }
}

@Suite struct AttachmentStorageTests {
    @Test func storingTheSameAttachmentsAgainChangesNothing() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var message = Samples.message(1)
        message.attachments = [Attachment(kind: "image", url: "https://example.org/a.png", altText: "a"),
                               Attachment(kind: "video", url: "https://example.org/b.mp4")]
        try store.upsert(messages: [message])
        let generation = try store.state().generation
        for _ in 0..<20 {
            try store.upsert(messages: [message])
        }
        #expect(try store.state().generation == generation)
        #expect(try SQLiteShell.run(store.path, "SELECT attachments FROM messages").trimmed
            == #"[{"alt_text":"a","kind":"image","url":"https://example.org/a.png"},{"kind":"video","url":"https://example.org/b.mp4"}]"#)
    }

    @Test func attachmentsWrittenBadlyByHandReadAsNone() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        try store.upsert(messages: [Samples.message(1), Samples.message(2), Samples.message(3)])
        try SQLiteShell.run(store.path, """
            UPDATE messages SET attachments = 'not json' WHERE id = 'm1';
            UPDATE messages SET attachments = '[{"kind": 5}, {"kind": "image", "alt_text": "ok"}]' WHERE id = 'm2';
            UPDATE messages SET attachments = '{"kind": "image"}' WHERE id = 'm3';
            """)
        #expect(try store.message(id: "m1")?.attachments == [])
        #expect(try store.message(id: "m2")?.attachments == [Attachment(kind: "image", altText: "ok")])
        #expect(try store.message(id: "m3")?.attachments == [])
    }
}
