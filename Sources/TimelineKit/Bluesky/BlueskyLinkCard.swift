#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

/// A link card (`app.bsky.embed.external`, issue 36): what the official app shows under a post
/// whose text has a link, built as it builds one, from the page: `og:title` before `<title>`,
/// `og:description` before `<meta name="description">`, `og:image` as the thumbnail, uploaded
/// as a blob.
///
/// The page is fetched as a stranger would: one `GET` with no token and no cookie (the
/// transport keeps none), `http` or `https` only (the transport takes `http` to a loopback
/// address only), at most 3 redirects, each checked again, at most ``pageByteLimit`` bytes and
/// ``timeLimit`` in all; the thumbnail likewise, at most ``BlueskyBlob/imageSizeLimit`` bytes
/// of an image type. Whatever fails, the post goes without a card (or without a thumbnail).
struct BlueskyLinkCard: Sendable, Hashable {
    var uri: String
    var title: String
    var description: String
    var thumb: BlueskyBlob?

    /// The most bytes of a page read (a larger page gets no card).
    static let pageByteLimit = 1 << 20
    /// The longest the page and its thumbnail may take, redirects included.
    static let timeLimit: Duration = .seconds(10)
    /// The most redirects followed.
    static let redirectLimit = 3

    /// The card as the record's `embed`.
    var embedJSON: [UInt8] {
        var bytes: [UInt8] = Array(#"{"$type":"app.bsky.embed.external","external":{"uri":"#.utf8)
        JSONLineEncoder.appendString(uri, to: &bytes)
        bytes += Array(#","title":"#.utf8)
        JSONLineEncoder.appendString(title, to: &bytes)
        bytes += Array(#","description":"#.utf8)
        JSONLineEncoder.appendString(description, to: &bytes)
        if let thumb { bytes += Array(#","thumb":"#.utf8) + thumb.recordJSON }
        bytes += Array("}}".utf8)
        return bytes
    }
}

/// Why a post went without its link card, said in one line by whoever listens
/// (``LinkCardNotices``).
public enum LinkCardNotices {
    private static let listener = Mutex<(@Sendable (String) -> Void)?>(nil)

    /// Calls `listener` with each sentence saying a post went without its card (the command
    /// line prints it on standard error); `nil` stops.
    public static func listen(_ listener: (@Sendable (String) -> Void)?) {
        self.listener.withLock { $0 = listener }
    }

    static func say(_ sentence: String) {
        let listener = listener.withLock { $0 }
        listener?(sentence)
    }
}

extension BlueskySync {
    /// The card of `uri`, or `nil` (said to ``LinkCardNotices``) when the page cannot give one.
    func linkCard(for uri: String) async -> BlueskyLinkCard? {
        let deadline = ContinuousClock.now + BlueskyLinkCard.timeLimit
        let page: (url: String, body: [UInt8], type: String)
        do {
            page = try await fetchForCard(uri, accept: "text/html,application/xhtml+xml", limit: BlueskyLinkCard.pageByteLimit, deadline: deadline)
        } catch {
            LinkCardNotices.say("the post goes without a link card: \(uri) could not be read (\(error)).")
            return nil
        }
        let head = HTMLHeadScanner(page: page.body)
        guard let title = head.cardTitle ?? head.cardDescription else {
            LinkCardNotices.say("the post goes without a link card: \(uri) has no title.")
            return nil
        }
        var card = BlueskyLinkCard(uri: uri, title: title, description: head.cardDescription ?? "", thumb: nil)
        if let image = head.openGraphImage {
            let address = URLReference.resolve(image, against: page.url)
            do {
                let picture = try await fetchForCard(address, accept: "image/*", limit: BlueskyBlob.imageSizeLimit, deadline: deadline)
                let type = picture.type
                guard type.hasPrefix("image/") else { throw CardFetchFailure("it is \(type.isEmpty ? "of no type" : type), not an image") }
                card.thumb = try await uploadBlob(picture.body, mimeType: type)
            } catch {
                LinkCardNotices.say("the link card goes without its picture: \(address) could not be used (\(error)).")
            }
        }
        return card
    }

    struct CardFetchFailure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }

    /// `GET url` for a card, following at most ``BlueskyLinkCard/redirectLimit`` redirects,
    /// with no credential: the final address, the body and its media type.
    private func fetchForCard(_ url: String, accept: String, limit: Int,
                              deadline: ContinuousClock.Instant) async throws -> (url: String, body: [UInt8], type: String) {
        var address = url
        for _ in 0 ... BlueskyLinkCard.redirectLimit {
            guard address.lowercased().hasPrefix("https://") || address.lowercased().hasPrefix("http://") else {
                throw CardFetchFailure("only http and https addresses are read")
            }
            let left = deadline - ContinuousClock.now
            guard left > .zero else { throw CardFetchFailure("no answer within \(BlueskyLinkCard.timeLimit.components.seconds) s") }
            // The user agent and what is accepted only: never the account's token or a cookie.
            let request = HTTPRequest(method: .get, url: address, headers: client.requester.headers(accept: accept),
                                      timeout: left, maximumResponseBytes: limit)
            let response = try await client.requester.transport.send(request)
            if [301, 302, 303, 307, 308].contains(response.status), let location = response.header("Location") {
                address = URLReference.resolve(location, against: address)
                continue
            }
            guard (200 ..< 300).contains(response.status) else { throw CardFetchFailure("it answered \(response.status)") }
            let type = (response.header("Content-Type") ?? "").split(separator: ";").first.map { String($0).trimmingSpaces().lowercased() } ?? ""
            return (address, response.body, type)
        }
        throw CardFetchFailure("more than \(BlueskyLinkCard.redirectLimit) redirects")
    }
}

private extension String {
    func trimmingSpaces() -> String {
        var text = Substring(self)
        while text.first == " " || text.first == "\t" { text.removeFirst() }
        while text.last == " " || text.last == "\t" { text.removeLast() }
        return String(text)
    }
}
