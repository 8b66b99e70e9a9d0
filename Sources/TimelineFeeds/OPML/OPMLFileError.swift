/// Why a file gives no feeds to subscribe to: ``description`` names the file, the place when one
/// is at fault, what is wrong, and what to do.
public enum OPMLFileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file is not an OPML document this module reads: the XML's problem and its place.
    case unreadable(file: String, FeedError)
    /// A well-formed OPML document without one outline that has an `xmlUrl`.
    case noFeeds(file: String)

    public var description: String {
        switch self {
        case let .unreadable(file, error):
            let place = error.line.map { line in ", line \(line)" + (error.column.map { ", column \($0)" } ?? "") } ?? ""
            return "\(file)\(place): \(Self.what(error.problem)); fix the file, or export the list again from the reader it came from."
        case let .noFeeds(file):
            return "\(file) holds no outline with an xmlUrl, so no feed to subscribe to; is it a feed reader's subscription list?"
        }
    }

    /// The problem in words that fit a subscription list (``FeedError``'s own speak of a feed
    /// and its publisher).
    private static func what(_ problem: FeedError.Problem) -> String {
        switch problem {
        case let .malformedXML(detail): "not well-formed XML (\(detail))"
        case let .notAFeed(found): "not an OPML subscription list (found \(found))"
        case let .tooLarge(bytes, limit): "the file is \(bytes) bytes, more than the \(limit) a list may be"
        case let .externalEntity(name): "the file declares an external entity \"\(name)\", which is never loaded"
        case .entityExpansionTooLarge: "its entity references expand it far past its size (a \"billion laughs\" document)"
        case let .nestedTooDeep(limit): "outlines are nested more than \(limit) levels deep"
        case let .attributeTooLong(bytes, limit): "an attribute is \(bytes) bytes long, more than the \(limit) allowed"
        case let .unsupportedEncoding(name):
            "it declares the encoding \"\(name)\" (UTF-8, UTF-16, ISO-8859-1, US-ASCII and windows-1252 are read)"
        case let .invalidEncoding(detail): "its bytes are not in the encoding it declares (\(detail))"
        case let .malformedJSON(detail), let .invalidJSONFeed(detail): "not OPML (\(detail))"
        }
    }
}
