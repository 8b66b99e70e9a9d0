import Foundation
import Testing
@testable import TimelineKit

@Suite struct LinkHeaderTests {
    @Test func mastodonsRecordedNextAndPrevLinksAreRead() throws {
        let cassette = try Cassette.named("home_timeline")
        let response = try #require(cassette.interactions("GET", "http://localhost:3000/api/v1/timelines/home").first).response.httpResponse
        let links = LinkHeader(fields: response.headers(named: "Link"), base: "http://localhost:3000/api/v1/timelines/home")
        #expect(links.first(relation: "next")?.target == "http://localhost:3000/api/v1/timelines/home?max_id=117020574694606796")
        #expect(links.first(relation: "prev")?.target == "http://localhost:3000/api/v1/timelines/home?min_id=117020593473214477")
    }

    @Test func linksComeFromSeveralFieldsAndRelationsCompareWithoutCase() {
        let links = LinkHeader(fields: [
            #"<https://a.example/1>; rel="NEXT last""#,
            #"<https://a.example/2>;REL=Prev , <https://a.example/3>; rel="http://example.com/Rel""#,
        ])
        #expect(links.links.map(\.target) == ["https://a.example/1", "https://a.example/2", "https://a.example/3"])
        #expect(links.first(relation: "next")?.target == "https://a.example/1")
        #expect(links.first(relation: "Last")?.target == "https://a.example/1")
        #expect(links.first(relation: "prev")?.target == "https://a.example/2")
        #expect(links.first(relation: "http://EXAMPLE.com/rel")?.target == "https://a.example/3")
    }

    @Test func commasAndSemicolonsInsideTargetsAndQuotedStringsDoNotSplitLinks() {
        let links = LinkHeader(fields: [
            #"<https://a.example/x?a=1,2;b>; title="one, two; \"three\""; rel=next, <https://a.example/y>; rel="prev""#,
        ])
        #expect(links.links.count == 2)
        #expect(links.links[0].target == "https://a.example/x?a=1,2;b")
        #expect(links.links[0].parameters.first { $0.name == "title" }?.value == #"one, two; "three""#)
        #expect(links.first(relation: "prev")?.target == "https://a.example/y")
    }

    @Test func onlyTheFirstRelCountsAndParametersMayHaveNoValue() {
        let link = LinkHeader(fields: [#"<https://a.example/>; crossorigin; rel=next; rel=prev"#]).links.first
        #expect(link?.relations == ["next"])
        #expect(link?.parameters.first?.name == "crossorigin")
        #expect(link?.parameters.first?.value == nil)
    }

    @Test func aMalformedLinkIsSkippedAndTheOthersAreKept() {
        let links = LinkHeader(fields: [#"garbage "with, commas", <https://a.example/ok>; rel=next, <https://a.example/unclosed; rel=prev"#])
        #expect(links.links.map(\.target) == ["https://a.example/ok"])
        #expect(LinkHeader(fields: ["", " , ,", "<>"]).links.map(\.target) == [""])
    }

    @Test func relativeTargetsAreResolvedAgainstTheRequest() {
        let base = "https://a.example/api/v1/timelines/home?limit=40"
        #expect(LinkHeader.resolve("/api/v1/x?max_id=1", against: base) == "https://a.example/api/v1/x?max_id=1")
        #expect(LinkHeader.resolve("?max_id=1", against: base) == "https://a.example/api/v1/timelines/home?max_id=1")
        #expect(LinkHeader.resolve("public?max_id=1", against: base) == "https://a.example/api/v1/timelines/public?max_id=1")
        #expect(LinkHeader.resolve("//b.example/z", against: base) == "https://b.example/z")
        #expect(LinkHeader.resolve("http://c.example/", against: base) == "http://c.example/")
    }

    /// Links written out with random spacing, quoting, case, extra parameters and field splits
    /// read back as they were made; random bytes never crash the parser.
    @Test func fuzzedHeadersReadBackAsWrittenAndGarbageNeverCrashes() {
        var random = SplitMix64(seed: 8288)
        let relations = ["next", "prev", "last", "first", "alternate", "http://example.com/rel"]
        for _ in 0 ..< 2_000 {
            var expected: [(target: String, relations: [String])] = []
            var fields: [String] = []
            var field = ""
            for index in 0 ..< Int(random.next() % 5) {
                let target = "https://h\(random.next() % 100).example/p?a=\(index),b;c=\"q\""
                let chosen = (0 ..< Int(random.next() % 3 + 1)).map { _ in relations[Int(random.next() % UInt64(relations.count))] }
                expected.append((target, chosen.map { $0.lowercased() }))
                let space = { (random: inout SplitMix64) in String(repeating: random.next() % 2 == 0 ? " " : "\t", count: Int(random.next() % 3)) }
                var link = "<\(target)>"
                if random.next() % 2 == 0 { link += "\(space(&random));\(space(&random))title=\"x, y; \\\"z\\\"\"" }
                let relValue = chosen.map { random.next() % 2 == 0 ? $0.uppercased() : $0 }.joined(separator: " ")
                let quoted = chosen.count > 1 || relValue.contains(":") || random.next() % 2 == 0
                link += "\(space(&random));\(space(&random))\(random.next() % 2 == 0 ? "rel" : "Rel")=" + (quoted ? "\"\(relValue)\"" : relValue)
                if random.next() % 2 == 0 { link += "; anchor" }
                if !field.isEmpty && random.next() % 3 == 0 {
                    fields.append(field)
                    field = ""
                }
                field += (field.isEmpty ? "" : "\(space(&random)),\(space(&random))") + link
            }
            if !field.isEmpty { fields.append(field) }
            let links = LinkHeader(fields: fields).links
            #expect(links.map(\.target) == expected.map(\.target))
            #expect(links.map(\.relations) == expected.map(\.relations))
        }
        let alphabet = Array(#"<>;,="\ relnxt:/ab"#.utf8) + [0, 0xFF, 0x09]
        for _ in 0 ..< 20_000 {
            let bytes = (0 ..< Int(random.next() % 40)).map { _ in alphabet[Int(random.next() % UInt64(alphabet.count))] }
            _ = LinkHeader(fields: [String(decoding: bytes, as: UTF8.self)], base: "https://a.example/b")
        }
    }
}
