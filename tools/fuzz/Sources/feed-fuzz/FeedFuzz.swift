import FuzzSupport
import TimelineFeeds
import TimelineKit

/// Small limits, so that the fuzzer reaches them (and the code that refuses at them) with
/// inputs of a few kilobytes; the defaults are the same code with larger numbers.
let limits = FeedLimits(maximumBytes: 1 << 20, maximumDepth: 64, maximumAttributeBytes: 4096, maximumTextBytes: 1 << 20,
                        entityExpansionThresholdBytes: 65_536)

/// What must hold for any bytes: the parsers never crash or read out of bounds (AddressSanitizer),
/// finish in linear time (`timed`), and what they give keeps their promises: links absolute,
/// item IDs non-empty, messages within TimelineKit's text limit, namespaced, one per item, and
/// every error's sentence free of the control characters a terminal would obey.
func check(_ bytes: [UInt8]) {
    do throws(FeedError) {
        let feed = try FeedParser.parse(bytes, url: "https://fuzz.example/feed/", limits: limits)
        for item in feed.items {
            if item.id.isEmpty { fatalError("an item with an empty ID: \(item)") }
            if let link = item.link, !link.contains(":") { fatalError("a relative link: \(link.debugDescription)") }
        }
        let converted = FeedMessages(feed: feed, subscription: FeedSubscriptionIdentity(id: "f", name: "fuzz"),
                                     fetchedAt: .init(timeIntervalSince1970: 0))
        if converted.messages.count != feed.items.count { fatalError("\(feed.items.count) items made \(converted.messages.count) messages") }
        for message in converted.messages {
            if message.text.utf8.count > JSONLinesImporter.maximumTextBytes { fatalError("a text over the limit: \(message.text.utf8.count) bytes") }
            if !message.id.hasPrefix("feed:f:") { fatalError("an ID outside the subscription: \(message.id.debugDescription)") }
        }
    } catch {
        checkSentence(error.description)
    }
    do throws(FeedError) {
        let list = try OPMLDocument(parsing: bytes, limits: limits)
        let again = try OPMLDocument(parsing: Array(list.xml().utf8), limits: limits)
        if Set(again.subscriptions.map(\.feedURL)) != Set(list.subscriptions.map(\.feedURL)) {
            fatalError("an OPML list written and read again lost feeds: \(list.subscriptions) / \(again.subscriptions)")
        }
    } catch {
        checkSentence(error.description)
    }
    for found in FeedDiscovery.feeds(inPage: bytes, url: "https://fuzz.example/page") where !found.url.contains(":") {
        fatalError("a discovered feed with a relative address: \(found.url.debugDescription)")
    }
}

/// An error's sentence quotes what the document held (an encoding's or an entity's name):
/// it must not carry escape sequences to the terminal that shows it.
func checkSentence(_ sentence: String) {
    if sentence.unicodeScalars.contains(where: { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }) {
        fatalError("an error sentence holds a control character: \(sentence.debugDescription)")
    }
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    timed(String(decoding: bytes.prefix(200), as: UTF8.self)) { check(bytes) }
    return 0
}

/// The program's entry (see `runLibFuzzer`).
@_cdecl("feed_fuzz_main")
func feedFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
