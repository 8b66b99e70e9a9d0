/// Why bytes are not a feed (or an OPML list) this module reads: the problem, where it is in the
/// document when one place is at fault, and, in ``description``, what to do next.
///
/// A command shows ``description`` as it is (`timeline subscribe` exits 65 on any of these: the
/// data is not a feed it can read).
public struct FeedError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public enum Problem: Sendable, Equatable {
        /// The document is longer than ``FeedLimits/maximumBytes``.
        case tooLarge(bytes: Int, limit: Int)
        /// Not well-formed XML: expat's own words (`mismatched tag`, `not well-formed (invalid token)`).
        case malformedXML(String)
        /// The document declares an external entity (`<!ENTITY x SYSTEM "file:///etc/passwd">`):
        /// nothing is ever loaded from outside the document, and such a declaration is refused
        /// rather than silently dropped, since no feed needs one.
        case externalEntity(name: String)
        /// Entity references expand the document past the limits (a "billion laughs" document).
        case entityExpansionTooLarge
        /// Elements nest deeper than ``FeedLimits/maximumDepth``.
        case nestedTooDeep(limit: Int)
        /// An attribute value is longer than ``FeedLimits/maximumAttributeBytes``.
        case attributeTooLong(bytes: Int, limit: Int)
        /// The declared encoding is one this module does not read.
        case unsupportedEncoding(String)
        /// The bytes do not match the encoding the document declares (or UTF-8 when it declares none).
        case invalidEncoding(String)
        /// Not JSON, as TimelineKit's reader says it.
        case malformedJSON(String)
        /// Well-formed, but no feed: what the document's root was instead (`an HTML page`, `<svg>`).
        case notAFeed(found: String)
        /// A JSON Feed without a field the spec requires (`items`), or with one of the wrong type.
        case invalidJSONFeed(String)
    }

    /// What is wrong.
    public let problem: Problem
    /// The 1-based line of the place at fault, when one place is.
    public let line: Int?
    /// The 1-based column of the place at fault, when one place is.
    public let column: Int?

    /// An error at `line` and `column` of the document.
    public init(_ problem: Problem, line: Int? = nil, column: Int? = nil) {
        self.problem = problem
        self.line = line
        self.column = column
    }

    /// The problem and its place, as one sentence that ends with what to do.
    public var description: String {
        let place = line.map { line in "line \(line)" + (column.map { ", column \($0)" } ?? "") + ": " } ?? ""
        return place + sentence
    }

    private var sentence: String {
        switch problem {
        case let .tooLarge(bytes, limit):
            "the document is \(bytes) bytes, more than the \(limit) a feed may be; is this URL a feed?"
        case let .malformedXML(detail):
            "the feed is not well-formed XML (\(detail)); tell the feed's publisher, or check the URL names the feed."
        case let .externalEntity(name):
            "the feed declares an external entity \"\(name)\", which is never loaded (it could read local files); "
                + "tell the feed's publisher, feeds need none."
        case .entityExpansionTooLarge:
            "the feed's entity references expand it far past its size (a \"billion laughs\" document); it is refused."
        case let .nestedTooDeep(limit):
            "elements are nested more than \(limit) levels deep, deeper than any feed; it is refused."
        case let .attributeTooLong(bytes, limit):
            "an attribute is \(bytes) bytes long, more than the \(limit) a feed's attribute may be; it is refused."
        case let .unsupportedEncoding(name):
            "the feed declares the encoding \"\(name)\"; UTF-8, UTF-16, ISO-8859-1, US-ASCII and windows-1252 are read: "
                + "ask the publisher for UTF-8."
        case let .invalidEncoding(detail):
            "the feed's bytes are not in the encoding it declares (\(detail)); tell the feed's publisher."
        case let .malformedJSON(detail):
            "the feed is not valid JSON: \(detail)"
        case let .notAFeed(found):
            "this is not an RSS, Atom or JSON feed (found \(found)); give the feed's URL, or a page that links to one."
        case let .invalidJSONFeed(detail):
            "the JSON Feed is invalid: \(detail); tell the feed's publisher."
        }
    }
}
