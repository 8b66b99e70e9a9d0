/// A list of subscriptions in OPML (http://opml.org/spec2.opml), as feed readers import and export
/// them: every `outline` with an `xmlUrl`, at any depth; the outlines around it are its folders.
///
/// ```swift
/// let list = try OPMLDocument(parsing: bytes)
/// for subscription in list.subscriptions { print(subscription.feedURL) }
/// let written = OPMLDocument(title: "timeline", subscriptions: list.subscriptions).xml()
/// ```
public struct OPMLDocument: Sendable, Hashable {
    /// The list's `head/title`.
    public var title: String?
    /// Every outline with an `xmlUrl`, in document order.
    public var subscriptions: [OPMLSubscription]

    /// A list to write with ``xml()``.
    public init(title: String? = nil, subscriptions: [OPMLSubscription]) {
        self.title = title
        self.subscriptions = subscriptions
    }

    /// Reads an OPML document through the same bounded XML reader as feeds.
    ///
    /// - Throws: ``FeedError``: the XML's problem and place, or
    ///   ``FeedError/Problem/notAFeed(found:)`` when the root is not `<opml>`.
    public init(parsing bytes: [UInt8], limits: FeedLimits = FeedLimits()) throws(FeedError) {
        let root = try ExpatReader.read(bytes, limits: limits)
        guard root.name == "opml" else {
            throw FeedError(.notAFeed(found: "an XML document whose root is <\(root.name)>, not <opml>"), line: root.line)
        }
        title = root.child("head")?.child("title")?.trimmedText
        var found: [OPMLSubscription] = []
        func walk(_ element: XMLElement, folders: [String]) {
            for outline in element.children("outline") {
                let name = (outline.attribute("title") ?? outline.attribute("text")).flatMap { PlainTitle.text($0, isHTML: false) }
                if let feedURL = outline.attribute("xmlUrl")?.trimmingXMLSpace(), !feedURL.isEmpty {
                    found.append(OPMLSubscription(feedURL: feedURL, title: name,
                                                  homeURL: outline.attribute("htmlUrl").flatMap { $0.isEmpty ? nil : $0 }, folders: folders))
                }
                walk(outline, folders: name.map { folders + [$0] } ?? folders)
            }
        }
        walk(root.child("body") ?? root, folders: [])
        subscriptions = found
    }

    /// Reads the OPML file `file` (its name, for errors) holding `bytes`, which must name at
    /// least one feed: what `timeline import --format opml` reads.
    ///
    /// - Throws: ``OPMLFileError/unreadable(file:_:)`` with the XML's problem and place, or
    ///   ``OPMLFileError/noFeeds(file:)``.
    public init(parsing bytes: [UInt8], file: String, limits: FeedLimits = FeedLimits()) throws(OPMLFileError) {
        do {
            try self.init(parsing: bytes, limits: limits)
        } catch {
            throw .unreadable(file: file, error)
        }
        guard !subscriptions.isEmpty else { throw .noFeeds(file: file) }
    }

    /// The list as an OPML 2.0 document in UTF-8: subscriptions in their folders (nested
    /// outlines, in the order each folder first appears), attributes escaped.
    public func xml() -> String {
        var lines = ["<?xml version=\"1.0\" encoding=\"UTF-8\"?>", "<opml version=\"2.0\">", "  <head>"]
        if let title { lines.append("    <title>\(XMLEscaping.escaped(title))</title>") }
        lines += ["  </head>", "  <body>"]
        write(subscriptions, depth: 0, into: &lines)
        lines += ["  </body>", "</opml>"]
        return lines.joined(separator: "\n") + "\n"
    }

    private func write(_ subscriptions: [OPMLSubscription], depth: Int, into lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth + 2)
        var folders: [String] = []
        var inFolder: [String: [OPMLSubscription]] = [:]
        for subscription in subscriptions {
            if subscription.folders.count > depth {
                let folder = subscription.folders[depth]
                if inFolder[folder] == nil { folders.append(folder) }
                inFolder[folder, default: []].append(subscription)
            } else {
                var attributes = [("type", "rss")]
                if let title = subscription.title { attributes += [("text", title), ("title", title)] }
                attributes.append(("xmlUrl", subscription.feedURL))
                if let home = subscription.homeURL { attributes.append(("htmlUrl", home)) }
                let written = attributes.map { "\($0.0)=\"\(XMLEscaping.escaped($0.1, quotes: true))\"" }.joined(separator: " ")
                lines.append("\(indent)<outline \(written)/>")
            }
        }
        for folder in folders {
            let name = XMLEscaping.escaped(folder, quotes: true)
            lines.append("\(indent)<outline text=\"\(name)\" title=\"\(name)\">")
            write(inFolder[folder] ?? [], depth: depth + 1, into: &lines)
            lines.append("\(indent)</outline>")
        }
    }
}
