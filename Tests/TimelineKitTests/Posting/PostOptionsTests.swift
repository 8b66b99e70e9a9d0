import Foundation
import Testing
@testable import TimelineKit

/// Issue 36's post options in the library: the language code, poll limits, the networks'
/// refusals, a waiting post keeping its options, and what each network's request carries.
@Suite struct PostOptionsTests {
    static let now = Date(timeIntervalSince1970: 1_790_000_000)

    @Test func aLanguageIsAPrimarySubtagWithAtMostARegionWrittenAsTheNetworksTakeIt() {
        #expect(PostLanguage.normalized("EN") == "en")
        #expect(PostLanguage.normalized("pt-br") == "pt-BR")
        #expect(PostLanguage.normalized("fil") == "fil")
        #expect(PostLanguage.normalized("es-419") == "es-419")
        for refused in ["english", "e", "en_US", "en-", "-en", "en-US-x", "", "e1", "ja-JPN", "ü"] {
            #expect(PostLanguage.normalized(refused) == nil, "\(refused)")
        }
    }

    @Test func aPollBeyondTheLimitsIsRefusedNamingWhatToChange() {
        let limits = PollLimits.mastodonDefaults
        #expect(PollDraft(options: ["Tabs", "Spaces"]).refusal(under: limits) == nil)
        #expect(PollDraft(options: ["Only"]).refusal(under: limits)?.contains("at least 2 options") == true)
        #expect(PollDraft(options: ["a", "b", "c", "d", "e"]).refusal(under: limits)?.contains("at most 4 options (Mastodon's default); it has 5") == true)
        #expect(PollDraft(options: ["a", String(repeating: "x", count: 51)]).refusal(under: limits)?.contains("option 2 is 51 characters") == true)
        #expect(PollDraft(options: ["a", "a"]).refusal(under: limits)?.contains("twice") == true)
        #expect(PollDraft(options: ["a", " "]).refusal(under: limits)?.contains("option 2 is empty") == true)
        #expect(PollDraft(options: ["a", "b"], expiresIn: 60).refusal(under: limits)?.contains("between 5 minutes and") == true)
        // Without --poll-expires: one day, inside every server's range.
        #expect(PollDraft(options: ["a", "b"]).expiresIn == 86_400)
    }

    @Test func blueskyRefusesAPollAScheduleAndAWrittenWarningNamingWhatToUseAndTakesALabel() {
        let bluesky = Account.Network.bluesky.capabilities
        var draft = PostDraft(text: "hi")
        draft.poll = PollDraft(options: ["a", "b"])
        #expect(bluesky.refusal(of: draft)?.hasPrefix("Bluesky posts have no polls") == true)
        draft = PostDraft(text: "hi")
        draft.scheduledAt = Self.now
        #expect(bluesky.refusal(of: draft)?.hasPrefix("Bluesky has no scheduled posts") == true)
        draft = PostDraft(text: "hi", contentWarning: "spoilers")
        #expect(bluesky.refusal(of: draft)?.contains("--sensitive labels the post's pictures") == true)
        draft = PostDraft(text: "hi")
        draft.sensitive = true
        draft.contentLabel = .porn
        #expect(bluesky.refusal(of: draft) == nil)
        // Mastodon takes all but the label, which it refuses naming --sensitive and --cw.
        let mastodon = Account.Network.mastodon.capabilities
        #expect(mastodon.refusal(of: draft)?.contains("--label is Bluesky's") == true)
        draft.contentLabel = nil
        draft.poll = PollDraft(options: ["a", "b"])
        draft.scheduledAt = Self.now
        #expect(mastodon.refusal(of: draft) == nil)
    }

    @Test func aWaitingPostKeepsItsOptionsAndOneWithoutThemReadsAsBefore() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        var draft = PostDraft(text: "Tabs or spaces?", languages: ["pt-BR"])
        draft.sensitive = true
        draft.contentLabel = .nudity
        draft.poll = PollDraft(options: ["Tabs", "Spaces \"quoted\" ✓"], expiresIn: 3_600, multiple: true)
        draft.scheduledAt = Self.now.addingTimeInterval(3_600)
        draft.linkCard = false
        _ = try store.enqueue(.post(draft), account: "a", author: nil, key: "k1", at: Self.now)
        let plain = PostDraft(text: "plain", languages: ["en"])
        _ = try store.enqueue(.post(plain), account: "a", author: nil, key: "k2", at: Self.now)
        let queued = try store.outbox()
        #expect(queued.map(\.change) == [.post(draft), .post(plain)])
    }

    @Test func aMastodonStatusCarriesItsLanguageSensitiveMediaPollAndTime() throws {
        var draft = PostDraft(text: "Q", languages: ["pt-BR"])
        draft.sensitive = true
        draft.poll = PollDraft(options: ["Yes", "No"])
        draft.scheduledAt = Self.now
        let body = MastodonPost(draft, idempotencyKey: "k").body(replyToServerID: nil)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
        #expect(object["language"] as? String == "pt-BR")
        #expect(object["sensitive"] as? Bool == true)
        let poll = try #require(object["poll"] as? [String: Any])
        #expect(poll["options"] as? [String] == ["Yes", "No"] && poll["expires_in"] as? Int == 86_400 && poll["multiple"] as? Bool == false)
        #expect(object["scheduled_at"] as? String == "2026-09-21T14:13:20Z")
        // Without options, none of their fields: the account's defaults hold.
        let plain = try #require(try JSONSerialization.jsonObject(with: Data(MastodonPost(PostDraft(text: "Q"), idempotencyKey: "k").body(replyToServerID: nil))) as? [String: Any])
        #expect(Set(plain.keys) == ["status"])
    }

    @Test func aLocalTimeOrAnRFC3339TimeIsATimeAndAnythingElseIsNot() {
        #expect(ScheduleTime.parse("2026-12-01T09:30:00Z") == Date(timeIntervalSince1970: 1_796_117_400))
        #expect(ScheduleTime.parse("2026-12-01 09:30") != nil)
        #expect(ScheduleTime.parse("2026-12-01T09:30:15") != nil)
        for refused in ["tomorrow", "2026-02-30 09:30", "2026-12-01 24:00", "2026-12-01", "09:30", "2026-12-01 9:30"] {
            #expect(ScheduleTime.parse(refused) == nil, "\(refused)")
        }
    }
}
