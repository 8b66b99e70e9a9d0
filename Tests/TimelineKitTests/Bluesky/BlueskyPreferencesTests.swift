#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Testing
@testable import TimelineKit

/// `app.bsky.actor.getPreferences` answers in the lexicon's shapes (`app.bsky.actor.defs`), read
/// as `@atproto/api`'s `getPreferences` reads them (issue 34).
@Suite struct BlueskyPreferencesTests {
    static let labeler = "did:plc:labelerone"
    static let answer = """
        {"preferences":[
          {"$type":"app.bsky.actor.defs#savedFeedsPrefV2","items":[{"id":"3l","type":"timeline","value":"following","pinned":true}]},
          {"$type":"app.bsky.actor.defs#adultContentPref","enabled":true},
          {"$type":"app.bsky.actor.defs#contentLabelPref","label":"nudity","visibility":"warn"},
          {"$type":"app.bsky.actor.defs#contentLabelPref","label":"gore","visibility":"show"},
          {"$type":"app.bsky.actor.defs#contentLabelPref","label":"spoilers","visibility":"hide","labelerDid":"\(labeler)"},
          {"$type":"app.bsky.actor.defs#contentLabelPref","label":"rude","visibility":"hide","labelerDid":"did:plc:notsubscribed"},
          {"$type":"app.bsky.actor.defs#labelersPref","labelers":[{"did":"\(labeler)"},{"did":"not a did"},{"did":"\(labeler)"}]},
          {"$type":"app.bsky.actor.defs#mutedWordsPref","items":[
            {"id":"1","value":"Finale","targets":["content","tag"],"actorTarget":"all"},
            {"id":"2","value":"politics","targets":["tag"],"actorTarget":"exclude-following","expiresAt":"2026-12-01T00:00:00.000Z"},
            {"id":"3","value":"天气","targets":["content","tag"]},
            {"id":"4","value":"x","targets":["content"]},
            {"value":"no targets"}]},
          {"$type":"app.bsky.actor.defs#hiddenPostsPref","items":["at://did:plc:alice/app.bsky.feed.post/3kabc","https://example.com/"]}
        ]}
        """

    private func read(_ text: String) throws -> BlueskyPreferences {
        try BlueskyPreferences(JSONFields.document(Array(text.utf8)))
    }

    @Test func everyModerationPreferenceIsRead() throws {
        let preferences = try read(Self.answer)
        #expect(preferences.adultContentEnabled)
        #expect(preferences.labelers == [Self.labeler])
        #expect(preferences.labelChoices == [
            LabelChoice(label: "nudity", visibility: .warn),
            LabelChoice(label: "gore", visibility: .ignore),
            LabelChoice(label: "graphic-media", visibility: .ignore),
            LabelChoice(labeler: Self.labeler, label: "spoilers", visibility: .hide),
        ])
        let expiry = MillisecondTime.date(fromMilliseconds: try RFC3339Time.parse("2026-12-01T00:00:00.000Z").get())
        #expect(preferences.mutedWords == [
            MutedWord(value: "Finale"),
            MutedWord(value: "politics", targetsText: false, expiresAt: expiry, excludesFollowing: true),
            MutedWord(value: "天气", wholeWord: false),
            MutedWord(value: "x", wholeWord: false),
        ])
        #expect(preferences.hiddenPosts == ["at://did:plc:alice/app.bsky.feed.post/3kabc"])
        #expect(preferences.acceptLabelers == "did:plc:ar7c4by46qjdydhdevvrndac;redact, \(Self.labeler)")
    }

    @Test func theRulesOfTheAccountBecomeItsPreferencesAndKeepItsAccounts() throws {
        var rules = ModerationRules(mutedAccounts: ["did:plc:muted": nil], mutedWords: [MutedWord(value: "stale")], hiddenPosts: ["old"])
        try read(Self.answer).apply(to: &rules)
        #expect(rules.mutedAccounts.keys.sorted() == ["did:plc:muted"])
        #expect(rules.mutedWords.map(\.value) == ["Finale", "politics", "天气", "x"])
        #expect(rules.hiddenPosts == ["at://did:plc:alice/app.bsky.feed.post/3kabc"])
        #expect(rules.labels.isRead && rules.labels.adultContentEnabled && rules.labels.labelers == [Self.labeler])
        let now = Date(timeIntervalSince1970: 1_790_000_000)
        let post = Message(id: "at://did:plc:bob/app.bsky.feed.post/1", authorID: "did:plc:bob", text: "The FINALE.", createdAt: now)
        #expect(rules.verdict(for: post, facts: .none, now: now) == .hidden(reason: "muted word"))
        let hidden = Message(id: "at://did:plc:alice/app.bsky.feed.post/3kabc", authorID: "did:plc:alice", text: "hi", createdAt: now)
        #expect(rules.verdict(for: hidden, facts: .none, now: now) == .hidden(reason: "hidden post"))
        let labelled = ModerationFacts(labels: [ContentLabel(source: Self.labeler, value: "spoilers")])
        #expect(rules.verdict(for: Message(id: "p", authorID: "did:plc:bob", text: "", createdAt: now), facts: labelled, now: now)
            == .hidden(reason: "spoilers"))
    }

    @Test func aLaterPreferenceOfAKindReplacesAnEarlierOne() throws {
        let preferences = try read("""
            {"preferences":[{"$type":"app.bsky.actor.defs#adultContentPref","enabled":true},
                            {"$type":"app.bsky.actor.defs#adultContentPref","enabled":false}]}
            """)
        #expect(!preferences.adultContentEnabled)
    }

    @Test func anAnswerWithoutPreferencesIsRefused() {
        #expect(throws: JSONLineFailure.self) { try read(#"{"prefs":[]}"#) }
    }

    /// Hostile preferences: 10,000 muted words and 1,000 labelers are read within their limits.
    @Test func tenThousandWordsAndAThousandLabelersAreKeptWithinTheirLimits() throws {
        let words = (0..<10_000).map { #"{"value":"word\#($0)","targets":["content"]}"# }.joined(separator: ",")
        let long = #"{"value":"\#(String(repeating: "a", count: 100_000))","targets":["content"]}"#
        let labelers = (0..<1_000).map { #"{"did":"did:plc:labeler\#($0)"}"# }.joined(separator: ",")
        let preferences = try read("""
            {"preferences":[{"$type":"app.bsky.actor.defs#mutedWordsPref","items":[\(long),\(words)]},
                            {"$type":"app.bsky.actor.defs#labelersPref","labelers":[\(labelers)]}]}
            """)
        #expect(preferences.mutedWords.count == 10_000)
        #expect(preferences.labelers.count == BlueskyPreferences.maximumLabelers)
        #expect(preferences.leftOut == 1 + 980)
        #expect(preferences.acceptLabelers.split(separator: ",").count == 21)
    }

    @Test func theClientNamesTheLabelersInEveryCall() {
        let client = BlueskyClient(service: try! ServerAddress(FakePDS.entryway), session: nil, transport: FakePDS())
        #expect(client.acceptedLabelersHeader == "did:plc:ar7c4by46qjdydhdevvrndac;redact")
        client.acceptLabelers([Self.labeler, "did:bad label"])
        #expect(client.acceptedLabelersHeader == "did:plc:ar7c4by46qjdydhdevvrndac;redact, \(Self.labeler)")
    }
}
