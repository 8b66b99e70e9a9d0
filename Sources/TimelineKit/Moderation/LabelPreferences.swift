/// What the person chose for moderation labels (Bluesky's `#adultContentPref`,
/// `#contentLabelPref` and `#labelersPref`), and the labels' defaults where they chose nothing.
///
/// A message's labels are read as `@atproto/api`'s `moderatePost` reads them for a list of posts
/// (its `contentList` context), label by label (``verdict(for:authorID:)``):
/// - A label from a labeler the person does not subscribe to is ignored, except Bluesky's own
///   moderation service (``blueskyModeration``), which every client applies. A label the author
///   put on their own post or account (a self-label) is read whoever subscribes to what.
/// - Its definition: the global labels (`!hide`, `!warn`, `!no-unauthenticated`) and the known
///   ones (`porn`, `sexual`, `nudity`, `graphic-media` and its old name `gore`;
///   `LabelDefinition.known`). `!hide` and `!warn` are never taken from a self-label.
/// - Its setting: a global label's own (`!hide` hides, `!warn` collapses, nothing overrides
///   them); `hide` for an adult-only label while adult content is off; else the person's choice
///   for this labeler's label, else their choice for the label, else the label's default
///   (`porn` hide, `sexual` and `graphic-media` warn, `nudity` ignore: not adult-only, it keeps
///   its own default when adult content is off).
/// - `!no-unauthenticated` asks clients to hide from readers who are not logged in: a sync is
///   always logged in, so it is ignored.
/// - Then: `hide` hides the message (a label on its author hides all their messages); `warn`
///   collapses it when the label blurs content (the global labels, on the post or the author),
///   and when it blurs media on the post (`porn`, `sexual`, `nudity`, `graphic-media`). There
///   `moderatePost` blurs only the images and shows the text: a terminal shows no images, only
///   their links and descriptions, so the whole post is collapsed, which is what timeline did
///   before it read preferences. A media label on the author (which blurs only their avatar) and
///   a label that only informs change nothing.
///
/// Where timeline differs, and why:
/// - A labeler's own labels (a value the known list lacks) are defined by the labeler
///   (`app.bsky.labeler.getServices`), which timeline does not fetch: `moderatePost` ignores a
///   label it has no definition for, and so does timeline, except where the person chose `hide`
///   or `warn` for it (for that labeler or for the value): that choice is applied, so a label
///   the person asked to hide is hidden, as in their app. A labeler's default for a label the
///   person never chose is not known here, and the label is ignored.
/// - A label on the person's own post hides or collapses it as it would anyone's (their app
///   shows their own posts); the rules do not know who the person is on each network.
public struct LabelPreferences: Sendable, Hashable, Codable {
    /// Whether adult content may be shown at all (off by default, as in Bluesky's app).
    public var adultContentEnabled: Bool
    /// The person's choice per label value, and per labeler where they made it for one.
    public var choices: [LabelChoice]
    /// The labelers the person subscribes to (`#labelersPref`), by DID; Bluesky's own
    /// (``blueskyModeration``) is applied whether listed or not.
    public var labelers: Set<String>
    /// Whether these preferences were read from a network that has labels (Bluesky): the
    /// preferences of an account without labels (Mastodon) do not vote when accounts' rules are
    /// merged, so that a Mastodon account does not turn a Bluesky account's adult content off.
    public var isRead: Bool

    /// Bluesky's own moderation service, whose labels every client applies (`BSKY_LABELER_DID`).
    public static let blueskyModeration = "did:plc:ar7c4by46qjdydhdevvrndac"

    public init(adultContentEnabled: Bool = false, choices: [LabelChoice] = [], labelers: Set<String> = [], isRead: Bool = false) {
        self.adultContentEnabled = adultContentEnabled
        self.choices = choices
        self.labelers = labelers
        self.isRead = isRead
    }

    private enum CodingKeys: String, CodingKey { case adultContentEnabled, choices, labelers, isRead }

    /// Reads preferences written by any version: a field it lacks has its default.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        adultContentEnabled = try container.decodeIfPresent(Bool.self, forKey: .adultContentEnabled) ?? false
        choices = try container.decodeIfPresent([LabelChoice].self, forKey: .choices) ?? []
        labelers = try container.decodeIfPresent(Set<String>.self, forKey: .labelers) ?? []
        isRead = try container.decodeIfPresent(Bool.self, forKey: .isRead) ?? false
    }

    /// The strictest of both: adult content only where both allow it, every labeler of either,
    /// every choice (the strictest where they differ). Preferences not read from a network
    /// (``isRead`` off) change nothing.
    mutating func merge(_ other: LabelPreferences) {
        guard other.isRead else { return }
        guard isRead else {
            self = other
            return
        }
        adultContentEnabled = adultContentEnabled && other.adultContentEnabled
        choices += other.choices
        labelers.formUnion(other.labelers)
    }

    /// The choices by labeler and value, made once for many verdicts.
    struct Index: Sendable {
        /// The person's choice per value, for every labeler (`nil` key) or one; the strictest
        /// where several were made.
        var choices: [LabelKey: LabelChoice.Visibility] = [:]
        var labelers: Set<String> = []
    }

    /// A label value from one labeler (`nil`: any).
    struct LabelKey: Hashable, Sendable {
        var labeler: String?
        var value: String
    }

    /// These preferences' choices indexed.
    func index() -> Index {
        var index = Index(labelers: labelers)
        index.labelers.insert(Self.blueskyModeration)
        for choice in choices {
            let key = LabelKey(labeler: choice.labeler, value: choice.label)
            index.choices[key] = max(index.choices[key] ?? choice.visibility, choice.visibility)
        }
        return index
    }

    /// What `labels` make of a message by `authorID` under these preferences: the strictest
    /// verdict of its labels.
    public func verdict(for labels: [ContentLabel], authorID: String) -> ModerationVerdict {
        labels.isEmpty ? .shown : verdict(for: labels, authorID: authorID, index: index())
    }

    func verdict(for labels: [ContentLabel], authorID: String, index: Index) -> ModerationVerdict {
        var verdict = ModerationVerdict.shown
        for label in labels {
            verdict = verdict.combined(with: self.verdict(for: label, authorID: authorID, index: index))
            if case .hidden = verdict { return verdict }
        }
        return verdict
    }

    /// What one label makes of its message (the steps of the type's description, in order).
    private func verdict(for label: ContentLabel, authorID: String, index: Index) -> ModerationVerdict {
        let isSelf = label.source == authorID
        guard isSelf || index.labelers.contains(label.source) else { return .shown }
        let definition = LabelDefinition.known[label.value]
        if isSelf, definition?.isGlobal == true { return .shown }
        let names = definition.map { [$0.identifier] + ($0.aliasOf.map { [$0] } ?? []) } ?? [label.value]
        func choice() -> LabelChoice.Visibility? {
            for name in names {
                if !isSelf, let choice = index.choices[LabelKey(labeler: label.source, value: name)] { return choice }
            }
            for name in names {
                if let choice = index.choices[LabelKey(labeler: nil, value: name)] { return choice }
            }
            return nil
        }
        guard let definition else {
            // A labeler's own label, whose definition timeline does not fetch: the person's choice only.
            switch choice() {
            case .hide: return .hidden(reason: label.value)
            case .warn: return .collapsed(reason: label.value)
            case .ignore, nil: return .shown
            }
        }
        let setting: LabelChoice.Visibility
        if definition.isGlobal {
            setting = definition.defaultSetting
        } else if definition.isAdultOnly && !adultContentEnabled {
            setting = .hide
        } else {
            setting = choice() ?? definition.defaultSetting
        }
        if setting == .ignore || definition.isForUnauthenticatedReaders { return .shown }
        if setting == .hide { return .hidden(reason: definition.name) }
        switch definition.blurs {
        case .content: return .collapsed(reason: definition.name)
        case .media: return label.isOnAuthor ? .shown : .collapsed(reason: definition.name)
        }
    }
}

/// One choice about a label (`#contentLabelPref`): hide, warn or ignore, for every labeler or one.
public struct LabelChoice: Sendable, Hashable, Codable {
    /// What to do with a labelled message, least strict first.
    public enum Visibility: String, Sendable, Hashable, Codable, Comparable {
        case ignore, warn, hide

        public static func < (lhs: Self, rhs: Self) -> Bool { lhs.strictness < rhs.strictness }

        private var strictness: Int {
            switch self {
            case .ignore: 0
            case .warn: 1
            case .hide: 2
            }
        }
    }
    /// The labeler's DID, `nil` for a choice about the label whoever applies it.
    public var labeler: String?
    /// The label's value.
    public var label: String
    public var visibility: Visibility

    public init(labeler: String? = nil, label: String, visibility: Visibility) {
        self.labeler = labeler
        self.label = label
        self.visibility = visibility
    }
}

/// A label value's definition: what it blurs, its default, whether people may choose otherwise,
/// as in `@atproto/api`'s `definitions/labels.json` (the labels every Bluesky client knows).
struct LabelDefinition: Sendable, Hashable {
    /// What the label hides when it warns: the whole post, or its media.
    enum Blurs: Sendable, Hashable { case content, media }

    /// The value (`porn`).
    var identifier: String
    /// The name a collapsed message is painted with (the definition's English name).
    var name: String
    /// The value whose choices it follows (`gore` follows `graphic-media`'s).
    var aliasOf: String?
    /// A global label (`!hide`, `!warn`, `!no-unauthenticated`): not configurable, not a self-label.
    var isGlobal: Bool
    var defaultSetting: LabelChoice.Visibility
    /// Hidden while adult content is off (the `adult` flag).
    var isAdultOnly: Bool
    /// Meant for readers who are not logged in (the `unauthed` flag): ignored by a logged-in reader.
    var isForUnauthenticatedReaders: Bool
    var blurs: Blurs

    /// The known labels, by value.
    static let known: [String: LabelDefinition] = {
        let graphic = LabelDefinition(identifier: "graphic-media", name: "Graphic Media", isGlobal: false, defaultSetting: .warn,
                                      isAdultOnly: true, isForUnauthenticatedReaders: false, blurs: .media)
        var gore = graphic
        gore.identifier = "gore"
        gore.aliasOf = "graphic-media"
        let all = [
            LabelDefinition(identifier: "!hide", name: "Hidden by moderators", isGlobal: true, defaultSetting: .hide,
                            isAdultOnly: false, isForUnauthenticatedReaders: false, blurs: .content),
            LabelDefinition(identifier: "!warn", name: "Content Warning", isGlobal: true, defaultSetting: .warn,
                            isAdultOnly: false, isForUnauthenticatedReaders: false, blurs: .content),
            LabelDefinition(identifier: "!no-unauthenticated", name: "Sign-in Required", isGlobal: true, defaultSetting: .hide,
                            isAdultOnly: false, isForUnauthenticatedReaders: true, blurs: .content),
            LabelDefinition(identifier: "porn", name: "Adult Content", isGlobal: false, defaultSetting: .hide,
                            isAdultOnly: true, isForUnauthenticatedReaders: false, blurs: .media),
            LabelDefinition(identifier: "sexual", name: "Sexually Suggestive", isGlobal: false, defaultSetting: .warn,
                            isAdultOnly: true, isForUnauthenticatedReaders: false, blurs: .media),
            LabelDefinition(identifier: "nudity", name: "Non-sexual Nudity", isGlobal: false, defaultSetting: .ignore,
                            isAdultOnly: false, isForUnauthenticatedReaders: false, blurs: .media),
            graphic, gore,
        ]
        return Dictionary(uniqueKeysWithValues: all.map { ($0.identifier, $0) })
    }()
}
