#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// RSS 2.0 (with 0.91 and 0.92, which it extends) and RSS 1.0 (RDF, and 0.90 before it): one
/// reader, since they share their elements and differ in where items sit (inside `channel` in
/// RSS 2.0, beside it in RSS 1.0) and in their namespace (none, or RSS 1.0's).
///
/// Beyond the core elements it reads what real feeds put there: `content:encoded` (the full
/// text), `dc:creator` and `dc:date`, `atom:link`, `sy:updatePeriod`, and a `guid` that is
/// the permalink when there is no `link`, as feedparser and NetNewsWire do.
enum RSSParser {
    static func parse(_ root: XMLElement, url: String?) -> ParsedFeed {
        let isRDF = root.namespace == XMLNamespace.rdf
        let format: FeedFormat = isRDF ? .rss1 : .rss2
        let base = FeedURL.base(of: root, within: url)
        // RSS 1.0 items are in its namespace; 0.90's in Netscape's. Take the channel's own.
        let channel = root.elements.first { $0.name == "channel" } ?? root
        let namespace = channel.namespace
        let channelBase = FeedURL.base(of: channel, within: base)
        var items = isRDF ? root.children("item", in: namespace) : channel.children("item", in: namespace)
        if items.isEmpty { items = root.children("item", in: namespace) }

        var feed = ParsedFeed(format: format)
        feed.title = channel.child("title", in: namespace).flatMap { PlainTitle.text($0.text) }
        feed.homeURL = channel.child("link", in: namespace)?.trimmedText.flatMap { FeedURL.resolve($0, against: channelBase) }
        feed.feedURL = channel.children("link", in: XMLNamespace.atom).first { $0.attribute("rel") == "self" }?
            .attribute("href").flatMap { FeedURL.resolve($0, against: channelBase) }
        feed.refreshInterval = refreshInterval(channel, namespace: namespace, root: root)
        feed.items = items.map { item(from: $0, namespace: namespace, base: channelBase) }
        return feed
    }

    private static func item(from element: XMLElement, namespace: String, base parentBase: String?) -> FeedItem {
        let base = FeedURL.base(of: element, within: parentBase)
        let guid = element.child("guid", in: namespace)
        let guidText = guid?.trimmedText
        let about = element.attribute("about", in: XMLNamespace.rdf)
        var link = element.child("link", in: namespace)?.trimmedText.flatMap { FeedURL.resolve($0, against: base) }
        if link == nil, let atomLink = element.children("link", in: XMLNamespace.atom).first(where: { ($0.attribute("rel") ?? "alternate") == "alternate" }) {
            link = atomLink.attribute("href").flatMap { FeedURL.resolve($0, against: FeedURL.base(of: atomLink, within: base)) }
        }
        // A guid is a permalink unless it says otherwise (RSS 2.0, `isPermaLink` defaults to true).
        if link == nil, let guidText, guid?.attribute("isPermaLink")?.lowercased() != "false",
           guidText.hasPrefix("http://") || guidText.hasPrefix("https://") {
            link = FeedURL.resolve(guidText, against: base)
        }
        if link == nil, let about, about.hasPrefix("http://") || about.hasPrefix("https://") { link = about }

        let title = element.child("title", in: namespace).flatMap { PlainTitle.text($0.text) }
        let summary = element.child("description", in: namespace)?.trimmedText.map(FeedText.html)
        let content = element.child("encoded", in: XMLNamespace.content)?.trimmedText.map(FeedText.html)
        let published = [element.child("pubDate", in: namespace), element.child("date", in: XMLNamespace.dublinCore),
                         element.child("issued", in: XMLNamespace.dublinCore)]
            .lazy.compactMap { $0.flatMap { FeedDate.parse($0.text) } }.first
        let updated = [element.child("updated", in: XMLNamespace.atom), element.child("modified", in: XMLNamespace.dublinCore)]
            .lazy.compactMap { $0.flatMap { FeedDate.parse($0.text) } }.first

        var authors = element.children("creator", in: XMLNamespace.dublinCore).compactMap { $0.trimmedText.map { FeedAuthor(name: $0) } }
        if authors.isEmpty {
            authors = element.children("author", in: namespace).compactMap { $0.trimmedText.map(Self.author) }
        }
        if authors.isEmpty, let name = element.child("author", in: XMLNamespace.itunes)?.trimmedText {
            authors = [FeedAuthor(name: name)]
        }

        let id = guidText ?? about ?? link ?? FeedItemID.hash([
            title ?? "", summary?.source ?? "", content?.source ?? "",
            published.map { "\($0.timeIntervalSince1970)" } ?? "",
        ])
        return FeedItem(id: id, title: title, link: link, summary: summary, content: content,
                        published: published, updated: updated, authors: authors)
    }

    /// An RSS `author`: an e-mail address by the spec, written in practice as
    /// `joe@example.com (Joe Bloggs)`, `Joe Bloggs <joe@example.com>`, or a bare name.
    static func author(_ text: String) -> FeedAuthor {
        if let open = text.firstIndex(of: "("), text.hasSuffix(")") {
            let email = String(text[..<open]).trimmingXMLSpace()
            let name = String(text[text.index(after: open) ..< text.index(before: text.endIndex)]).trimmingXMLSpace()
            return FeedAuthor(name: name.isEmpty ? nil : name, email: email.isEmpty ? nil : email)
        }
        if let open = text.firstIndex(of: "<"), text.hasSuffix(">") {
            let name = String(text[..<open]).trimmingXMLSpace()
            let email = String(text[text.index(after: open) ..< text.index(before: text.endIndex)]).trimmingXMLSpace()
            return FeedAuthor(name: name.isEmpty ? nil : name, email: email.isEmpty ? nil : email)
        }
        if text.contains("@"), !text.contains(" ") { return FeedAuthor(email: text) }
        return FeedAuthor(name: text)
    }

    /// RSS 2.0's `ttl` (minutes), or the syndication module's `updatePeriod` divided by its
    /// `updateFrequency` (RSS 1.0, and RSS 2.0 feeds from WordPress); the longer when both are given.
    private static func refreshInterval(_ channel: XMLElement, namespace: String, root: XMLElement) -> Duration? {
        let ttl = channel.child("ttl", in: namespace)?.trimmedText.flatMap(Int.init).flatMap { $0 > 0 ? Duration.seconds($0 * 60) : nil }
        let periodElement = channel.child("updatePeriod", in: XMLNamespace.syndication) ?? root.child("updatePeriod", in: XMLNamespace.syndication)
        let frequencyElement = channel.child("updateFrequency", in: XMLNamespace.syndication) ?? root.child("updateFrequency", in: XMLNamespace.syndication)
        var syndication: Duration?
        if let period = periodElement?.trimmedText?.lowercased() {
            let seconds: Int? = switch period {
            case "hourly": 3600
            case "daily": 86400
            case "weekly": 7 * 86400
            case "monthly": 30 * 86400
            case "yearly": 365 * 86400
            default: nil
            }
            let frequency = frequencyElement?.trimmedText.flatMap(Int.init).flatMap { $0 > 0 ? $0 : nil } ?? 1
            syndication = seconds.map { Duration.seconds($0 / frequency) }
        }
        switch (ttl, syndication) {
        case let (ttl?, syndication?): return max(ttl, syndication)
        case let (ttl, syndication): return ttl ?? syndication
        }
    }
}
