import Foundation
import Testing
@testable import TimelineKit

/// A direct message is marked as one wherever it is painted, and what the person's own rules fold
/// away is painted as its reason, not its text (issue 34).
@Suite struct AudienceAndWarningRenderingTests {
    private func text(_ message: Message, options: RenderOptions = RenderOptions(width: 80)) -> String {
        TimelineRenderer(options: options).renderText(TimelinePage(messages: [message], users: [Samples.alice]), now: Samples.epoch)
    }

    @Test func aDirectMessageAndAFollowersOnlyPostAreMarkedAndAPublicOneIsNot() {
        var message = Samples.message(1, text: "between us")
        message.visibility = .direct
        #expect(text(message).contains("✉ direct"))
        #expect(text(message, options: RenderOptions(width: 80, symbols: .ascii)).contains("[direct]"))
        message.visibility = .private
        #expect(text(message).contains("🔒 followers only"))
        message.visibility = .public
        #expect(!text(message).contains("direct") && !text(message).contains("followers"))
        message.visibility = nil
        #expect(!text(message).contains("direct"))
    }

    @Test func aCollapsedMessageShowsItsReasonNotItsTextUntilUnfolded() {
        var message = Samples.message(1, text: "the ending is a twist")
        message.warning = "Filtered: Spoilers"
        message.contentWarning = "film"
        let folded = text(message)
        #expect(folded.contains("Filtered: Spoilers"))
        #expect(folded.contains("CW: film"))
        #expect(!folded.contains("twist"))
        #expect(folded.contains("[text hidden: 21 characters]"))
        #expect(text(message, options: RenderOptions(width: 80, revealsContentWarnings: true)).contains("twist"))
    }

    @Test func aFilterThatBlursHidesTheMediaNotTheText() {
        var message = Samples.message(1, text: "look")
        message.attachments = [Attachment(kind: "image", url: "https://example.social/a.png", altText: "a cat")]
        message.moderation = ModerationFacts(filterMatches: [FilterMatch(title: "pets", action: .blur)])
        let painted = text(message)
        #expect(painted.contains("look"))
        #expect(painted.contains("1 attachment hidden: Filtered: pets"))
        #expect(!painted.contains("a cat"))
    }

    @Test func aNotificationAboutADirectMessageSaysSo() {
        var message = Samples.message(1, text: "psst")
        message.visibility = .direct
        let notification = TimelineNotification(account: "a", serverID: "n1", kind: .mention, createdAt: Samples.epoch,
                                                actor: Samples.bob, message: message, messageID: message.id)
        #expect(NotificationRenderer().line(for: notification, now: Samples.epoch).contains("✉ direct \"psst\""))
    }

    @Test func showJSONCarriesTheVisibilityAndTheRulesWarning() {
        var message = Samples.message(1)
        message.visibility = .direct
        message.warning = "Filtered: Spoilers"
        message.contentWarning = "cw"
        var bytes: [UInt8] = []
        JSONLineEncoder.appendMessage(message, author: .some(Samples.alice), to: &bytes)
        let line = String(decoding: bytes, as: UTF8.self)
        #expect(line.contains(#""warning":"Filtered: Spoilers""#))
        #expect(line.contains(#""content_warning":"cw""#))
        #expect(line.contains(#""visibility":"direct""#))
    }
}
