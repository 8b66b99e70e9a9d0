import Foundation
import Testing
@testable import TimelineKit

/// timeline's facets and records against the official Python AT Protocol SDK (pinned in
/// `tools/atproto-sdk/requirements.txt`, installed by `make test`): the SDK's own detection
/// (`client_utils.detect_facets`, `detect_mentions`) and its lexicon models judge, nothing
/// reimplemented on the Python side.
@Suite struct BlueskyRichTextSDKTests {
    /// A facet as both sides write it for the comparison: byte range, kind, value.
    struct Found: Equatable, CustomStringConvertible {
        var start: Int
        var end: Int
        var type: String
        var value: String

        init(_ facet: BlueskyRichText.Facet) {
            start = facet.start
            end = facet.end
            switch facet.feature {
            case let .link(uri): (type, value) = ("link", uri)
            case let .mention(handle): (type, value) = ("mention", handle)
            case let .tag(tag): (type, value) = ("tag", tag)
            }
        }

        init(_ object: [String: Any]) {
            start = object["start"] as? Int ?? -1
            end = object["end"] as? Int ?? -1
            type = object["type"] as? String ?? "?"
            value = object["value"] as? String ?? "?"
        }

        var description: String { "\(type) \(start)..<\(end) \(value)" }
    }

    static let corpus = RichTextCorpus.written + RichTextCorpus.generated(count: 2000)

    @Test func facetsAreTheSDKsByteForByteOnTheWholeCorpus() throws {
        let answers = try #require(try AtprotoSDK.json("facets", input: Self.corpus) as? [[[String: Any]]])
        #expect(answers.count == Self.corpus.count)
        var disagreements: [String] = []
        var facets = 0
        for (text, answer) in zip(Self.corpus, answers) {
            let sdk = answer.map(Found.init)
            let ours = BlueskyRichText.detectFacets(in: text).map(Found.init)
            facets += sdk.count
            if ours != sdk { disagreements.append("\(text.debugDescription): SDK \(sdk), timeline \(ours)") }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) of \(Self.corpus.count) texts differ:\n\(disagreements.prefix(30).joined(separator: "\n"))")
        // The corpus exercises every kind of facet, most texts holding one.
        let withFacets = answers.filter { !$0.isEmpty }.count
        #expect(withFacets * 2 > Self.corpus.count, "\(withFacets) of \(Self.corpus.count) texts with \(facets) facets")
        for kind in ["link", "mention", "tag"] {
            #expect(answers.joined().contains { $0["type"] as? String == kind }, "no \(kind) in the corpus")
        }
    }

    /// Every record `post` sends for the corpus (mentions resolved, a reply, languages) is a
    /// post record the SDK's lexicon models accept, string formats checked.
    @Test func everyRecordPostSendsIsAPostRecordTheSDKAccepts() async throws {
        let pds = FakePDS()
        let parent = "at://did:plc:ewvi7nxzyoun6zhxrhs64oiz/app.bsky.feed.post/3l3qo2vuowo2b"
        let parentCID = "bafyreie5737gdxlw5i64vzichcalba3z2v5n6icifvx5xytvske7mr3hpm"
        pds.state.withLock {
            $0.posts[parent] = #"{"uri":"\#(parent)","cid":"\#(parentCID)","author":{"did":"did:plc:ewvi7nxzyoun6zhxrhs64oiz","handle":"bob.test"},"#
                + #""record":{"$type":"app.bsky.feed.post","text":"parent","createdAt":"2026-11-26T05:00:00.000Z"},"indexedAt":"2026-11-26T05:00:00.000Z"}"#
        }
        pds.answer("com.atproto.identity.resolveHandle", FakePDS.json(200, #"{"did":"did:plc:ewvi7nxzyoun6zhxrhs64oiz"}"#))
        pds.answer("com.atproto.repo.createRecord", FakePDS.json(200, #"{"uri":"\#(parent)","cid":"\#(parentCID)"}"#))
        let fixture = try SyncFixture()
        fixture.account = "alice.test"
        let client = BlueskyClient(service: try ServerAddress(FakePDS.entryway), session: nil, transport: pds,
                                   policy: RequestPolicy(maximumAttempts: 1), clock: fixture.clock.clock)
        try await client.createSession(identifier: "alice.test", password: FakePDS.password)
        let sync = BlueskySync(store: fixture.store, account: fixture.account, client: client)

        let texts = RichTextCorpus.written.filter { !$0.isEmpty } + RichTextCorpus.generated(count: 200, seed: 7)
        for (index, text) in texts.enumerated() {
            try await sync.post(BlueskyPost(text: text, replyTo: index % 5 == 0 ? parent : nil, languages: index % 3 == 0 ? ["en", "ja"] : []))
        }
        let records = try pds.requests.filter { $0.url.hasSuffix("/com.atproto.repo.createRecord") }.map { request -> Any in
            let body = try #require(try JSONSerialization.jsonObject(with: Data(request.body ?? [])) as? [String: Any])
            return try #require(body["record"])
        }
        #expect(records.count == texts.count)
        let verdicts = try #require(try AtprotoSDK.json("records", input: records) as? [Any])
        #expect(verdicts.count == records.count)
        // One refusal is Python's, not the lexicon's: urllib refuses a host with characters that
        // NFKC turns into URL delimiters (`example.comé：`), where the PDS (TypeScript) accepts
        // the link; the SDK's own detection writes the same facet (the test above).
        let pythonOnly = "contains invalid characters under NFKC normalization"
        let refused = zip(texts, verdicts).filter { !($0.1 is NSNull) && ($0.1 as? String)?.contains(pythonOnly) != true }
        let shown = refused.prefix(10).map { "\($0.0.debugDescription): \($0.1)" }.joined(separator: "\n")
        #expect(refused.isEmpty, "\(refused.count) records refused:\n\(shown)")
        // With facets of each kind, mentions resolved to the DID, and the reply's references.
        let facets = records.compactMap { ($0 as? [String: Any])?["facets"] as? [[String: Any]] }.joined()
        let features = facets.compactMap { ($0["features"] as? [[String: Any]])?.first?["$type"] as? String }
        for kind in ["link", "mention", "tag"] { #expect(features.contains("app.bsky.richtext.facet#" + kind)) }
    }

    /// The records the SDK refuses are refused: the validation the test above relies on judges.
    @Test func theSDKsRecordValidationRefusesABrokenRecord() throws {
        let good: [String: Any] = ["$type": "app.bsky.feed.post", "text": "hi", "createdAt": "2026-11-26T05:00:00.000Z"]
        var badDate = good
        badDate["createdAt"] = "yesterday"
        var badFacet = good
        badFacet["facets"] = [["index": ["byteStart": 0, "byteEnd": 2], "features": [["$type": "app.bsky.richtext.facet#mention", "did": "alice"]]]]
        let verdicts = try #require(try AtprotoSDK.json("records", input: [good, badDate, badFacet]) as? [Any])
        #expect(verdicts.count == 3)
        #expect(verdicts.first is NSNull)
        #expect(verdicts.dropFirst().allSatisfy { $0 is String })
    }

    /// `\p{P}` as Swift's Unicode tables have it is the SDK's list, but for what Unicode 17
    /// added after the SDK's Unicode 16 list: U+10ED0 ARABIC BIBLICAL END OF VERSE.
    @Test func punctuationIsTheSDKs() throws {
        let text = String(decoding: try AtprotoSDK.run("punctuation"), as: UTF8.self)
        var sdk = Set<UInt32>()
        for line in text.split(separator: "\n") {
            let bounds = line.split(separator: "-").compactMap { UInt32($0, radix: 16) }
            try #require(bounds.count == 2, "\(line)")
            sdk.formUnion(bounds[0] ... bounds[1])
        }
        var ours = Set<UInt32>()
        for value in UInt32(0) ... 0x10FFFF {
            if let scalar = Unicode.Scalar(value), BlueskyRichText.isPunctuation(scalar) { ours.insert(value) }
        }
        #expect(sdk.count > 800)
        #expect(ours.subtracting(sdk) == [0x10ED0])
        #expect(sdk.subtracting(ours).isEmpty)
    }

    @Test func topLevelDomainsAreTheSDKs() throws {
        let sdk = Set(String(decoding: try AtprotoSDK.run("tlds"), as: UTF8.self).split(separator: "\n").map(String.init))
        #expect(sdk.count > 1000)
        #expect(TopLevelDomains.all == sdk)
    }
}
