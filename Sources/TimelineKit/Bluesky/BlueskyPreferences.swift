#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// What a Bluesky account's preferences (`app.bsky.actor.getPreferences`) say about what the
/// person does not want to see (issue 34), read as `@atproto/api`'s `getPreferences` reads them:
/// each preference in the order sent, a later one of a kind replacing an earlier one.
///
/// - `#adultContentPref` (`enabled`): adult content, off when absent.
/// - `#contentLabelPref` (`label`, `visibility`, `labelerDid`): a choice per label, for every
///   labeler or one; the old `show` is `ignore`, and a choice for the old names `nsfw`,
///   `suggestive`, `gore` is also one for `porn`, `sexual`, `graphic-media` (the SDK's
///   `remapLegacyLabels`). A choice for a labeler the person does not subscribe to is dropped,
///   as the SDK drops it.
/// - `#labelersPref` (`labelers[].did`): the labelers subscribed; the first
///   ``maximumLabelers`` valid DIDs are kept (Bluesky's app subscribes to 20 at most), which
///   ``acceptLabelers`` names to the AppView.
/// - `#mutedWordsPref` (`items[]`: `value`, `targets` `content`/`tag`, `actorTarget`,
///   `expiresAt`): ``MutedWord``s. A word is matched against tags whatever its targets, and
///   against the text when `content` is a target (Bluesky's `hasMutedWord`). A word of one
///   character, or written in a script without spaces between words (Chinese, Japanese, Korean,
///   Thai, Lao, Khmer, Myanmar), matches anywhere (`wholeWord` off): Bluesky decides that by
///   the post's first language, which a stored message does not keep, so timeline decides it by
///   the word's own script. Kept within ``MutedWord/bounded(_:)``'s limits.
/// - `#hiddenPostsPref` (`items`: `at://` URIs): the posts hidden, stored under their URIs as
///   ``BlueskyDecoder`` stores posts; at most ``maximumHiddenPosts``.
/// - `#savedFeedsPrefV2` (`items[]`: `id`, `type` `feed`/`list`/`timeline`, `value`, `pinned`):
///   the feeds saved and pinned (issue 37), ``SavedFeed``s in the order listed, at most
///   ``maximumSavedFeeds``; an item whose value is not the AT URI of its type's record (or
///   `following` for the timeline) is left out.
///
/// Anything else is not read here. A preference of a known kind that is malformed is left out
/// (the SDK's `isValid…` checks do the same), so that one bad entry does not stop a sync.
public struct BlueskyPreferences: Sendable, Hashable {
    public var adultContentEnabled = false
    public var labelChoices: [LabelChoice] = []
    /// The labelers subscribed, in the order listed.
    public var labelers: [String] = []
    public var mutedWords: [MutedWord] = []
    public var hiddenPosts: [String] = []
    /// The feeds saved, pinned or not, in the order listed, without names (``SavedFeed/name``
    /// comes from the feeds' generators).
    public var savedFeeds: [SavedFeed] = []
    /// How many muted words, label choices, labelers and hidden posts were left out by the limits.
    public var leftOut = 0

    /// The most labelers kept: Bluesky's app lets a person subscribe to 20.
    public static let maximumLabelers = 20
    /// The most label choices kept.
    public static let maximumLabelChoices = 10_000
    /// The most hidden posts kept.
    public static let maximumHiddenPosts = 50_000
    /// The most saved feeds kept: far more than the app's tabs, and each one's name is a
    /// generator's view to ask for.
    public static let maximumSavedFeeds = 200

    public init() {}

    /// Reads the answer of `app.bsky.actor.getPreferences` (`{"preferences": […]}`).
    init(_ document: JSONNode) throws(JSONLineFailure) {
        let answer = try JSONObjectView(document, path: "", expected: "a preferences answer")
        guard let preferences = try answer.array("preferences", expected: "an array of preferences") else { throw answer.missing("preferences") }
        var choices: [(labeler: String?, label: String, visibility: LabelChoice.Visibility)] = []
        for preference in preferences where preference.isObject {
            switch preference["$type"]?.stringValue {
            case "app.bsky.actor.defs#adultContentPref":
                if case let .bool(enabled)? = preference["enabled"]?.value { adultContentEnabled = enabled }
            case "app.bsky.actor.defs#contentLabelPref":
                guard let label = preference["label"]?.stringValue, label.utf8.count <= BlueskyDecoder.maximumLabelValueBytes,
                      let visibility = preference["visibility"]?.stringValue.flatMap(Self.visibility) else { continue }
                let labeler = preference["labelerDid"]?.stringValue
                if let labeler, !Self.isDID(labeler) { continue }
                choices.append((labeler, label, visibility))
            case "app.bsky.actor.defs#labelersPref":
                let all = (preference["labelers"]?.arrayValue ?? []).compactMap { $0.isObject ? $0["did"]?.stringValue : nil }.filter(Self.isDID)
                var seen = Set<String>()
                labelers = all.filter { seen.insert($0).inserted }
                leftOut += max(0, labelers.count - Self.maximumLabelers)
                labelers = Array(labelers.prefix(Self.maximumLabelers))
            case "app.bsky.actor.defs#mutedWordsPref":
                let (kept, dropped) = MutedWord.bounded((preference["items"]?.arrayValue ?? []).compactMap(Self.mutedWord))
                mutedWords = kept
                leftOut += dropped
            case "app.bsky.actor.defs#hiddenPostsPref":
                let uris = (preference["items"]?.arrayValue ?? []).compactMap(\.stringValue).filter { ATURI($0)?.recordKey != nil }
                hiddenPosts = Array(uris.prefix(Self.maximumHiddenPosts))
                leftOut += uris.count - hiddenPosts.count
            case "app.bsky.actor.defs#savedFeedsPrefV2":
                let items = (preference["items"]?.arrayValue ?? []).compactMap(Self.savedFeed)
                savedFeeds = Array(items.prefix(Self.maximumSavedFeeds))
                leftOut += items.count - savedFeeds.count
            default:
                continue
            }
        }
        let subscribed = Set(labelers).union([LabelPreferences.blueskyModeration])
        for choice in choices where choice.labeler.map(subscribed.contains) ?? true {
            guard labelChoices.count < Self.maximumLabelChoices else {
                leftOut += 1
                continue
            }
            labelChoices.append(LabelChoice(labeler: choice.labeler, label: choice.label, visibility: choice.visibility))
            if choice.labeler == nil, let current = Self.legacyLabels[choice.label] {
                labelChoices.append(LabelChoice(label: current, visibility: choice.visibility))
            }
        }
    }

    /// The label names Bluesky used before, and the names their choices now apply to.
    private static let legacyLabels = ["gore": "graphic-media", "nsfw": "porn", "suggestive": "sexual"]

    private static func visibility(_ text: String) -> LabelChoice.Visibility? {
        text == "show" ? .ignore : LabelChoice.Visibility(rawValue: text)
    }

    /// One `#mutedWordsPref` item, `nil` when it is not one.
    private static func mutedWord(_ item: JSONNode) -> MutedWord? {
        guard item.isObject, let value = item["value"]?.stringValue?.trimmingWhitespace, !value.isEmpty,
              let targets = item["targets"]?.arrayValue?.compactMap(\.stringValue) else { return nil }
        var expiresAt: Date?
        if let text = item["expiresAt"]?.stringValue {
            guard let milliseconds = try? RFC3339Time.parse(text).get() else { return nil }
            expiresAt = MillisecondTime.date(fromMilliseconds: milliseconds)
        }
        return MutedWord(value: value, targetsText: targets.contains("content"), targetsTags: true,
                         wholeWord: !matchesAnywhere(value), expiresAt: expiresAt,
                         excludesFollowing: item["actorTarget"]?.stringValue == "exclude-following")
    }

    /// One `#savedFeedsPrefV2` item, `nil` when it is not one: `type` and `value` must agree
    /// (a feed generator's AT URI, a list's, or `following`).
    private static func savedFeed(_ item: JSONNode) -> SavedFeed? {
        guard item.isObject, let id = item["id"]?.stringValue, let value = item["value"]?.stringValue,
              let kind = item["type"]?.stringValue.flatMap(SavedFeed.Kind.init(rawValue:)),
              case let .bool(pinned)? = item["pinned"]?.value else { return nil }
        switch kind {
        case .feed, .list:
            let collection = kind == .feed ? "app.bsky.feed.generator" : "app.bsky.graph.list"
            guard let uri = ATURI(value), uri.recordKey != nil, uri.collection == collection else { return nil }
        case .timeline:
            guard value == "following" else { return nil }
        }
        return SavedFeed(id: id, kind: kind, value: value, pinned: pinned)
    }

    /// Whether Bluesky matches `value` as a substring: one character, or a script written
    /// without spaces between words.
    static func matchesAnywhere(_ value: String) -> Bool {
        value.count == 1 || value.unicodeScalars.contains { scalar in
            switch scalar.value {
            case 0x0E00...0x0EFF, 0x1000...0x109F, 0x1780...0x17FF, 0x1100...0x11FF, 0x3040...0x30FF, 0x3130...0x318F,
                 0x31F0...0x31FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xAC00...0xD7AF, 0xF900...0xFAFF, 0xFF66...0xFF9F,
                 0x20000...0x2FFFF:
                true
            default:
                false
            }
        }
    }

    /// Whether `text` is a DID the AppView accepts in `atproto-accept-labelers` (`did:method:id`;
    /// one invalid DID makes it ignore the whole header).
    static func isDID(_ text: String) -> Bool {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "did", text.utf8.count <= 2048, !parts[1].isEmpty, !parts[2].isEmpty,
              parts[1].utf8.allSatisfy({ $0 >= 0x61 && $0 <= 0x7A }) else { return false }
        return parts[2].utf8.allSatisfy { byte in
            HostName.isLetterOrDigit(byte) || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ":")
                || byte == UInt8(ascii: "%") || byte == UInt8(ascii: "-")
        } && parts[2].last != ":" && parts[2].last != "%"
    }

    /// The value of the `atproto-accept-labelers` header, as the official client sends it:
    /// Bluesky's own moderation service with `;redact` (the AppView leaves out what it takes
    /// down), then the labelers subscribed.
    public var acceptLabelers: String {
        Self.acceptLabelers(labelers)
    }

    static func acceptLabelers(_ labelers: [String]) -> String {
        ([LabelPreferences.blueskyModeration + ";redact"] + labelers.filter { $0 != LabelPreferences.blueskyModeration })
            .joined(separator: ", ")
    }

    /// `rules` with these preferences: the muted words, hidden posts and label preferences of a
    /// Bluesky account are its preferences, replaced whole (muted and blocked accounts, and
    /// whom it follows, are not preferences and are kept).
    public func apply(to rules: inout ModerationRules) {
        rules.mutedWords = mutedWords
        rules.hiddenPosts = Set(hiddenPosts)
        rules.labels = LabelPreferences(adultContentEnabled: adultContentEnabled, choices: labelChoices,
                                        labelers: Set(labelers), isRead: true)
    }
}

extension String {
    /// The text without white space at either end.
    fileprivate var trimmingWhitespace: String {
        String(drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace).reversed())
    }
}
