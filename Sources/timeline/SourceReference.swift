#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import ArgumentParser
import TimelineKit

/// A short reference to a post of a hashtag's or a list's timeline, as `timeline tag` and
/// `timeline list` paint it (issue 27): `rust:bkd` for the post `bkd` of `timeline tag rust`,
/// `list-42:bkd` for one of `timeline list 42`. Those timelines are kept in databases of their
/// own, whose short references would name other posts in the main one; the label says which
/// database, so every command that takes a reference acts on the post that was shown, without
/// `--db`.
///
/// A hashtag is letters, digits and `_`, a list's label starts `list-` and a Bluesky feed's
/// `feed-` (`feed-whats-hot:bkd`, issue 37), so they never meet; none is a stored ID
/// (`host/id`) or a web address, which hold a `/`.
struct SourceReference: Equatable {
    /// `rust` (a hashtag), `list-42` (a list, by the last part of its ID) or `feed-whats-hot`
    /// (a Bluesky feed, by its record key).
    var label: String
    /// The short reference in the source's database: `bkd`.
    var reference: String

    /// The label of a list's timeline: `list-` and the last part of its ID (a Mastodon list's
    /// number, a Bluesky list's or feed's record key).
    static func listLabel(_ listID: String) -> String {
        "list-" + (listID.split(separator: "/").last.map(String.init) ?? listID)
    }

    /// The label of a conversation's last status (`timeline conversations`): `dm:bkd`.
    static let conversationsLabel = "dm"

    /// Whether it names a conversation's post, kept in the conversations' database.
    var isConversation: Bool { label == Self.conversationsLabel }

    /// The label `timeline tag` paints the hashtag `tag`'s posts with: the tag, or `#dm` for
    /// the tag that reads as the conversations' label.
    static func tagLabel(_ tag: String) -> String {
        tag.lowercased() == conversationsLabel ? "#" + tag : tag
    }

    /// The label of a Bluesky feed's timeline: `feed-` and its short name (its record key).
    static func feedLabel(_ shortName: String) -> String { "feed-" + shortName }

    /// The kinds of source database found by the end of their names (a list's, a feed's),
    /// not by the whole name: the part the label keeps.
    private static let endNamedKinds = ["list-", "feed-"]

    /// `text` as a source's reference, or `nil` when it is not one.
    static func parse(_ text: String) -> SourceReference? {
        guard let colon = text.lastIndex(of: ":") else { return nil }
        let label = String(text[..<colon]), reference = String(text[text.index(after: colon)...])
        guard ShortReference.sequence(of: reference) != nil, !label.contains("/") else { return nil }
        // `dm:bkd` is a conversation's (issue 37); the hashtag #dm's posts are painted `#dm:bkd`.
        if label == Self.conversationsLabel { return SourceReference(label: label, reference: reference) }
        if let kind = endNamedKinds.first(where: label.hasPrefix) {
            return label.count > kind.count ? SourceReference(label: label, reference: reference) : nil
        }
        guard let tag = TimelineSource.hashtag(label) else { return nil }
        return SourceReference(label: tagLabel(tag), reference: reference)
    }

    /// The database beside `main` that keeps this source's posts; refused (66) when there is
    /// none, (64) when several lists end the same way.
    func databasePath(beside main: String) throws(ExitCode) -> String {
        if isConversation {
            let path = try reportingErrors { () throws(SourceDatabaseNameError) in try SourceDatabaseName.conversations.path(beside: main) }
            guard FileManager.default.fileExists(atPath: path) else { throw missing("`timeline conversations` fetches them") }
            return path
        }
        guard let kind = Self.endNamedKinds.first(where: label.hasPrefix) else {
            let tag = TimelineSource.hashtag(label) ?? label
            let path = try reportingErrors { () throws(SourceDatabaseNameError) in try SourceDatabaseName.tag(tag).path(beside: main) }
            guard FileManager.default.fileExists(atPath: path) else { throw missing("`timeline tag \(label)` fetches its posts") }
            return path
        }
        // A list's file is named after its account and whole ID (`timeline.list-<account%2Fid>.sqlite`),
        // or ends with that ID's last part when its name is shortened (``SourceDatabaseName``); a
        // feed's likewise, `feed-`.
        let isFeed = kind == "feed-"
        let stem = SourceDatabaseName.path(beside: main, key: kind)
        let slash = stem.lastIndex(of: "/").map { stem.index(after: $0) } ?? stem.startIndex
        let directory = String(stem[..<slash]), prefix = String(stem[slash...]).dropLast(".sqlite".count)
        let suffix = "%2F" + SourceDatabaseName.escaped(String(label.dropFirst(kind.count))) + ".sqlite"
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? [])
            .filter { $0.hasPrefix(prefix) && $0.hasSuffix(suffix) }
        guard let name = names.first else { throw missing(isFeed ? "`timeline feed NAME` fetches a feed's posts" : "`timeline list ID` fetches a list's posts") }
        guard names.count == 1 else {
            Terminal.emitError("timeline: several \(isFeed ? "feeds'" : "lists'") timelines end in \(QuotedValue.quoted(label)) (\(names.map { TerminalText.line($0) }.joined(separator: ", "))): name the post with `timeline --db PATH`.\n")
            throw ExitCode(ExitStatus.usage)
        }
        return directory + name
    }

    /// The databases of hashtags', lists' and feeds' timelines kept beside `main`
    /// (`timeline.tag-rust.sqlite`, `timeline.list-….sqlite`, `timeline.feed-….sqlite`): where
    /// actions on their posts may wait to be sent.
    static func databases(beside main: String) -> [String] {
        let tag = SourceDatabaseName.path(beside: main, key: "tag-")
        let slash = tag.lastIndex(of: "/").map { tag.index(after: $0) } ?? tag.startIndex
        let directory = String(tag[..<slash])
        let stem = String(tag[slash...]).dropLast("tag-.sqlite".count)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.isEmpty ? "." : directory)) ?? []
        return names.filter { name in
            name == stem + SourceDatabaseName.conversations.key + ".sqlite"
                || name.hasSuffix(".sqlite") && (name.hasPrefix(stem + "tag-") || name.hasPrefix(stem + "list-") || name.hasPrefix(stem + "feed-"))
        }.sorted().map { directory + $0 }
    }

    private func missing(_ advice: String) -> ExitCode {
        if isConversation {
            Terminal.emitError("timeline: \(QuotedValue.quoted(label + ":" + reference)) names a conversation's post, and none are kept here: \(advice) and paints their references. Nothing was sent to a server.\n")
            return ExitCode(ExitStatus.noInput)
        }
        Terminal.emitError("timeline: \(QuotedValue.quoted(label + ":" + reference)) names a post of \(label.hasPrefix("list-") ? "the list \(TerminalText.line(String(label.dropFirst(5))))" : label.hasPrefix("feed-") ? "the feed \(TerminalText.line(String(label.dropFirst(5))))" : "#" + TerminalText.line(TimelineSource.hashtag(label) ?? label)), and none of its posts are kept here: \(advice) and paints their references. Nothing was sent to a server.\n")
        return ExitCode(ExitStatus.noInput)
    }
}

extension LocationOptions {
    /// The stores that keep the messages `references` name, and their stored IDs there: a
    /// hashtag's or a list's own database for a reference it painted (``SourceReference``,
    /// `rust:bkd`), the main one for every other; each store opened once. An unknown reference
    /// is refused (65) before anything is sent.
    func storesHolding(_ references: [String], verb: String) throws(ExitCode) -> [(store: TimelineStore, id: String)] {
        let main = try location().databasePath
        var stores: [String: TimelineStore] = [:]
        var found: [(store: TimelineStore, id: String)] = []
        for text in references {
            let source = SourceReference.parse(text)
            let path = try source.map { source throws(ExitCode) in try source.databasePath(beside: main) } ?? main
            let store: TimelineStore
            if let opened = stores[path] {
                store = opened
            } else if source == nil {
                store = try openStore(create: false)
            } else {
                store = try LocationOptions.openStore(at: path, create: false)
            }
            stores[path] = store
            found.append((store, try MessageSessions.resolve([source?.reference ?? text], in: store, verb: verb)[0]))
        }
        return found
    }
}
