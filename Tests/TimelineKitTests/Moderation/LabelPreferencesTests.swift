import Testing
@testable import TimelineKit

/// The decisions of `@atproto/api`'s `moderatePost` for a list of posts, label by label.
@Suite struct LabelPreferencesTests {
    private let author = "did:plc:author"
    private let bluesky = LabelPreferences.blueskyModeration
    private let other = "did:plc:otherlabeler"

    private func verdict(_ labels: [ContentLabel], _ preferences: LabelPreferences = LabelPreferences(isRead: true)) -> ModerationVerdict {
        preferences.verdict(for: labels, authorID: author)
    }

    @Test func theGlobalLabelsHideAndCollapseWhateverTheChoices() {
        let ignoring = LabelPreferences(adultContentEnabled: true, choices: [LabelChoice(label: "!hide", visibility: .ignore)], isRead: true)
        #expect(verdict([ContentLabel(source: bluesky, value: "!hide")], ignoring) == .hidden(reason: "Hidden by moderators"))
        #expect(verdict([ContentLabel(source: bluesky, value: "!warn")]) == .collapsed(reason: "Content Warning"))
        #expect(verdict([ContentLabel(source: bluesky, value: "!warn", isOnAuthor: true)]) == .collapsed(reason: "Content Warning"))
    }

    @Test func noUnauthenticatedIsForReadersWhoAreNotLoggedIn() {
        #expect(verdict([ContentLabel(source: bluesky, value: "!no-unauthenticated")]) == .shown)
        #expect(verdict([ContentLabel(source: author, value: "!no-unauthenticated", isOnAuthor: true)]) == .shown)
    }

    @Test func adultContentOffHidesTheAdultOnlyLabelsAndNudityKeepsItsDefault() {
        for value in ["porn", "sexual", "graphic-media", "gore"] {
            let enabled = LabelPreferences(adultContentEnabled: true, choices: [LabelChoice(label: value, visibility: .ignore)], isRead: true)
            #expect(verdict([ContentLabel(source: bluesky, value: value)]).isHidden, "\(value)")
            #expect(verdict([ContentLabel(source: bluesky, value: value)], enabled) == .shown, "\(value)")
        }
        #expect(verdict([ContentLabel(source: bluesky, value: "nudity")]) == .shown)
    }

    @Test func theKnownLabelsDefaultsApplyWhenAdultContentIsOn() {
        let on = LabelPreferences(adultContentEnabled: true, isRead: true)
        #expect(verdict([ContentLabel(source: bluesky, value: "porn")], on) == .hidden(reason: "Adult Content"))
        #expect(verdict([ContentLabel(source: bluesky, value: "sexual")], on) == .collapsed(reason: "Sexually Suggestive"))
        #expect(verdict([ContentLabel(source: bluesky, value: "graphic-media")], on) == .collapsed(reason: "Graphic Media"))
        #expect(verdict([ContentLabel(source: bluesky, value: "nudity")], on) == .shown)
    }

    @Test func aChoiceForOneLabelerComesBeforeTheChoiceForTheLabel() {
        let preferences = LabelPreferences(adultContentEnabled: true, choices: [
            LabelChoice(label: "nudity", visibility: .warn),
            LabelChoice(labeler: other, label: "nudity", visibility: .hide),
        ], labelers: [other], isRead: true)
        #expect(verdict([ContentLabel(source: bluesky, value: "nudity")], preferences) == .collapsed(reason: "Non-sexual Nudity"))
        #expect(verdict([ContentLabel(source: other, value: "nudity")], preferences) == .hidden(reason: "Non-sexual Nudity"))
    }

    @Test func labelsOfLabelersNotSubscribedAreIgnored() {
        let label = ContentLabel(source: other, value: "!hide")
        #expect(verdict([label]) == .shown)
        #expect(verdict([label], LabelPreferences(labelers: [other], isRead: true)).isHidden)
    }

    @Test func selfLabelsCountButNeverAsGlobalLabels() {
        #expect(verdict([ContentLabel(source: author, value: "porn")]).isHidden)
        #expect(verdict([ContentLabel(source: author, value: "!hide")]) == .shown)
        #expect(verdict([ContentLabel(source: author, value: "!warn")]) == .shown)
    }

    @Test func aMediaLabelOnTheAuthorBlursOnlyTheAvatarUnlessItHides() {
        let on = LabelPreferences(adultContentEnabled: true, isRead: true)
        #expect(verdict([ContentLabel(source: bluesky, value: "sexual", isOnAuthor: true)], on) == .shown)
        #expect(verdict([ContentLabel(source: bluesky, value: "porn", isOnAuthor: true)], on).isHidden)
    }

    @Test func aLabelersOwnLabelFollowsOnlyThePersonsChoice() {
        let label = ContentLabel(source: other, value: "spoilers")
        #expect(verdict([label], LabelPreferences(labelers: [other], isRead: true)) == .shown)
        let warned = LabelPreferences(choices: [LabelChoice(labeler: other, label: "spoilers", visibility: .warn)], labelers: [other], isRead: true)
        #expect(verdict([label], warned) == .collapsed(reason: "spoilers"))
    }

    @Test func theStrictestLabelWins() {
        let on = LabelPreferences(adultContentEnabled: true, isRead: true)
        #expect(verdict([ContentLabel(source: bluesky, value: "!warn"), ContentLabel(source: bluesky, value: "porn")], on).isHidden)
    }

    @Test func aMastodonAccountsPreferencesDoNotVoteInAMerge() {
        let bluesky = ModerationRules(labels: LabelPreferences(adultContentEnabled: true, isRead: true))
        let merged = ModerationRules.merged([bluesky, ModerationRules()])
        #expect(merged.labels.adultContentEnabled)
        let strict = ModerationRules.merged([bluesky, ModerationRules(labels: LabelPreferences(isRead: true))])
        #expect(!strict.labels.adultContentEnabled)
    }
}

extension ModerationVerdict {
    var isHidden: Bool {
        if case .hidden = self { return true }
        return false
    }
}
