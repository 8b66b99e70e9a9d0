import Foundation
import Testing
import TimelineFeeds

/// Declared encodings are read as declared: the same title in each comes out the same.
@Suite struct EncodingTests {
    static let title = "Café “quoted” – €5"

    static func feed(declaring encoding: String, body: [UInt8]) -> [UInt8] {
        Array("<?xml version=\"1.0\" encoding=\"\(encoding)\"?><rss version=\"2.0\"><channel><title>".utf8) + body
            + Array("</title></channel></rss>".utf8)
    }

    @Test func windows1252IsReadThroughExpatsUnknownEncodingHandler() throws {
        // "Café “quoted” – €5" in windows-1252: é E9, “ 93, ” 94, – 96, € 80.
        let body: [UInt8] = Array("Caf".utf8) + [0xE9, 0x20, 0x93] + Array("quoted".utf8) + [0x94, 0x20, 0x96, 0x20, 0x80] + Array("5".utf8)
        #expect(try FeedParser.parse(Self.feed(declaring: "windows-1252", body: body), url: nil).title == Self.title)
    }

    @Test func iso88591IsReadByExpatItself() throws {
        let body: [UInt8] = Array("Caf".utf8) + [0xE9]
        #expect(try FeedParser.parse(Self.feed(declaring: "ISO-8859-1", body: body), url: nil).title == "Café")
    }

    @Test func utf16WithAByteOrderMarkIsRead() throws {
        let text = "<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss version=\"2.0\"><channel><title>\(Self.title)</title></channel></rss>"
        let bytes: [UInt8] = [0xFF, 0xFE] + text.utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        #expect(try FeedParser.parse(bytes, url: nil).title == Self.title)
    }

    @Test func aUTF8ByteOrderMarkBeforeThePrologIsRead() throws {
        // donthitsave.xml, a real feed, starts so.
        let feed = try FeedParser.parse(FeedFixtures.bytes("donthitsave.xml"), url: FeedFixtures.feedURL)
        #expect(feed.format == .rss2)
        #expect(feed.items.count == 10)
    }

    @Test func htmlEntitiesUndeclaredInXMLAreDecodedAsHTMLWould() throws {
        let document = "<rss version=\"2.0\"><channel><title>caf&eacute; &hellip; &unknownthing;</title></channel></rss>"
        let feed = try FeedParser.parse(Array(document.utf8), url: nil)
        #expect(feed.title == "café … &unknownthing;")
    }
}
