import Foundation
import Testing
import TimelineKit

@Suite struct MastodonHTMLTests {
    @Test func paragraphsAreSeparatedByABlankLineAndBreaksAreNewlines() {
        #expect(MastodonHTML.plainText("<p>one<br>two<br />three</p><p>four</p>") == "one\ntwo\nthree\n\nfour")
    }

    @Test func linksShowTheirVisibleTextSoMentionsAndHashtagsReadAsWritten() {
        let html = #"<p><span class="h-card"><a href="https://mstdn.io/@alexl" class="u-url mention">@<span>alexl</span></a></span> likes <a href="https://mastodon.social/tags/mastodon" class="mention hashtag" rel="tag">#<span>Mastodon</span></a></p>"#
        #expect(MastodonHTML.plainText(html) == "@alexl likes #Mastodon")
    }

    @Test func invisibleSpansAreDroppedAndEllipsisSpansEndWithAnEllipsis() {
        let html = #"<p><a href="https://example.com/a/very/long/path"><span class="invisible">https://</span><span class="ellipsis">example.com/a/very</span><span class="invisible">/long/path</span></a></p>"#
        #expect(MastodonHTML.plainText(html) == "example.com/a/very…")
    }

    @Test func knownEntitiesAreDecodedAndUnknownOrMalformedOnesStayAsWritten() {
        #expect(MastodonHTML.plainText("<p>&amp; &lt;b&gt; &quot;q&quot; it&#39;s &apos;a&apos; a&nbsp;b &#x1F600; &#128512;</p>")
            == "& <b> \"q\" it's 'a' a\u{A0}b 😀 😀")
        #expect(MastodonHTML.plainText("<p>&bogus; &amp &#xZZ; &#0; &#1114112; AT&T</p>") == "&bogus; &amp &#xZZ; &#0; &#1114112; AT&T")
        #expect(HTMLEntities.decode("Fish &amp; Chips &gt; all") == "Fish & Chips > all")
    }

    @Test func preformattedTextKeepsItsLinesAndSpaces() {
        #expect(MastodonHTML.plainText("<p>Code:</p><pre><code>if x {\n    y()\n}</code></pre><p>done</p>")
            == "Code:\n\nif x {\n    y()\n}\n\ndone")
        // Outside `pre`, a raw line break is still a space, as in a browser.
        #expect(MastodonHTML.plainText("<p>a\nb</p>") == "a b")
    }

    @Test func listItemsGetBulletsOrNumbersIndentedByNesting() {
        #expect(MastodonHTML.plainText("<p>Todo:</p><ul><li>milk</li><li>eggs<ol><li>brown</li><li>white</li></ol></li></ul><p>end</p>")
            == "Todo:\n\n• milk\n• eggs\n  1. brown\n  2. white\n\nend")
        // A flood of nested lists is indented at most four steps, in linear time.
        let flood = String(repeating: "<ul>", count: 20_000) + "<li>deep</li>"
        #expect(MastodonHTML.plainText(flood) == "        • deep")
    }

    /// Every named reference of the HTML Standard, not just the five of XML: the longest name,
    /// two-scalar ones, case that matters; the `;` is still required, and unknown names stay.
    @Test func everyNamedReferenceOfHTMLIsDecoded() {
        #expect(MastodonHTML.plainText("<p>Wait&hellip; caf&eacute; &mdash; &euro;5 &larr;&rarr; &AMP;</p>") == "Wait… café — €5 ←→ &")
        #expect(HTMLEntities.decode("&CounterClockwiseContourIntegral;") == "\u{2233}")
        #expect(HTMLEntities.decode("&NotEqualTilde;").unicodeScalars.map(\.value) == [0x2242, 0x338])
        #expect(HTMLEntities.decode("&Eacute;&eacute;") == "Éé")
        #expect(HTMLEntities.decode("&copy2024 &eacute &notanentity; &hellip") == "&copy2024 &eacute &notanentity; &hellip")
        // A run far longer than any name is passed over as text, in linear time.
        let long = "&" + String(repeating: "a", count: 10_000) + ";"
        #expect(HTMLEntities.decode(long) == long)
    }

    @Test func otherTagsCommentsAndScriptsAreStrippedAndALoneLessThanIsText() {
        #expect(MastodonHTML.plainText("<p><b>bold</b> <!-- hidden --><script>alert(1)</script>a < b</p>") == "bold a < b")
    }

    @Test func customEmojiShortcodesStayAsText() {
        #expect(MastodonHTML.plainText("<p>hi :blobcat: :heart_cup:</p>") == "hi :blobcat: :heart_cup:")
    }

    @Test func rawNewlinesInTheHTMLAreSpacesAndEscapeCharactersSurviveForTheRendererToNeutralise() {
        #expect(MastodonHTML.plainText("<p>a\nb</p>") == "a b")
        #expect(MastodonHTML.plainText("<p>&#27;[31mred</p>") == "\u{1B}[31mred")
    }

    // MARK: Malformed and hostile HTML (issue 12)

    @Test func contentThatEndsInsideATagIsTextNotACrash() {
        // Each of these killed `timeline import` with SIGILL.
        #expect(MastodonHTML.plainText("a <") == "a <")
        #expect(MastodonHTML.plainText("<") == "<")
        #expect(MastodonHTML.plainText("a </") == "a </")
        #expect(MastodonHTML.plainText("<p>x</p><") == "x\n\n<")
        // Every other way to end inside markup.
        let endings: [(String, String)] = [
            ("<p>x</p><a", "x\n\n<a"), ("x </p", "x </p"), ("x <p ", "x <p "), ("x <p class", "x <p class"),
            ("x <p class=", "x <p class="), ("x <p class=\"", "x <p class=\""), ("x <p class='y", "x <p class='y"),
            ("x <p class=y", "x <p class=y"), ("x <!", "x <!"), ("x <!-", "x <!-"), ("x <!--", "x "), ("x <!-- y --", "x "),
            ("x <!DOCTYPE", "x <!DOCTYPE"), ("x <?", "x <?"), ("x &", "x &"), ("x &#", "x &#"), ("x &#x", "x &#x"),
            ("x &#x1F6", "x &#x1F6"), ("x &amp", "x &amp"), ("<span class=\"invisible\">x", ""),
            ("<span class=\"ellipsis\">x", "x"), ("<script>x", ""), ("x</span></script>", "x"),
        ]
        for (html, text) in endings {
            #expect(MastodonHTML.plainText(html) == text, "\(html.debugDescription)")
        }
    }

    @Test func realStatusHTMLCutAtEveryScalarIsText() throws {
        let statuses = try JSONSerialization.jsonObject(with: Data(RealData.bytes("mastodon4j/tag.json"))) as? [[String: Any]]
        var contents = (statuses ?? []).prefix(8).compactMap { $0["content"] as? String }
        #expect(contents.count == 8)
        contents.append(#"<p><span class="h-card"><a href="https://mstdn.io/@alexl" class="u-url mention">@<span>alexl</span></a></span> &amp; <a href="https://example.com/a/very/long/path"><span class="invisible">https://</span><span class="ellipsis">example.com/a/very</span><span class="invisible">/long/path</span></a><br />two &#x1F600;<!-- c --><script>s</script></p><p>end</p>"#)
        for html in contents {
            let scalars = Array(html.unicodeScalars)
            for end in 0...scalars.count {
                var cut = String.UnicodeScalarView()
                cut.append(contentsOf: scalars[..<end])
                // Text, never longer than the markup it came from.
                #expect(MastodonHTML.plainText(String(cut)).unicodeScalars.count <= end, "\(String(cut).debugDescription)")
            }
        }
    }

    @Test func aTagLeftOpenByAnUnclosedQuoteMakesTheRestOfTheContentText() {
        #expect(MastodonHTML.plainText(#"<p>x<a href="y>z</a></p>"#) == #"x<a href="y>z</a></p>"#)
        #expect(MastodonHTML.plainText(#"<p>x</p><a title='a "b'>c</a>"#) == "x\n\nc")
    }

    @Test func closingTagsThatMatchNothingAreIgnoredAndCloseOnlyTheirOwnElement() {
        #expect(MastodonHTML.plainText("</span></script>a</style></template>b") == "ab")
        #expect(MastodonHTML.plainText(#"<span class="invisible">hidden<span>x</span></script>still hidden</span>shown"#) == "shown")
        #expect(MastodonHTML.plainText(#"<span class="ellipsis">cut<span>in</span></span>!"#) == "cutin…!")
    }

    /// `unit` repeated to about 40 KB, after `prefix`, before `suffix`.
    private static func repeated(_ unit: String, prefix: String = "", suffix: String = "") -> String {
        prefix + String(repeating: unit, count: 40_000 / unit.utf8.count) + suffix
    }

    @Test func convertingHostileMarkupCostsWhatNormalMarkupCosts() {
        let normal = Self.repeated(#"<p>Hello <a href="https://example.com/x" class="mention">@<span>alex</span></a> &amp; 日本 #tag<br></p>"#)
        let shapes: [(String, String)] = [
            ("<a repeated without >", Self.repeated("<a")),
            ("<a repeated, then >", Self.repeated("<a", suffix: ">")),
            ("unclosed attribute quotes", Self.repeated(#"<a href="x "#)),
            ("unclosed quotes of both kinds, then >", Self.repeated(#"<a b='" <a c="' "#, suffix: ">")),
            ("an unclosed quote, then tags", Self.repeated("<b>x</b>", prefix: #"<a href="x"#)),
            ("stray closing tags", Self.repeated("</span>")),
            ("stray closing tags after open ones", Self.repeated("<span>", suffix: Self.repeated("</script>"))),
            ("closing tags of an element opened once", Self.repeated("<span>x", prefix: "<script>", suffix: Self.repeated("</span>"))),
            ("<! without >", Self.repeated("<!")),
            ("<!-- without -->", Self.repeated("<!-- -")),
            ("</ without >", Self.repeated("</")),
            ("entities without ;", Self.repeated("&#x1F60")),
        ]
        for (name, html) in shapes {
            CostRatio.expect(name) {
                _ = MastodonHTML.plainText(html)
            } normal: {
                _ = MastodonHTML.plainText(normal)
            }
        }
    }

    /// A poll (the shape of Mastodon's documentation) shows its options and how they stand;
    /// hidden results (`votes_count: null`) show the options alone.
    @Test func aPollShowsItsOptionsAndVotesUnderTheText() throws {
        let status = #"""
            [{"id":"1","created_at":"2026-01-01T00:00:00Z","account":{"id":"a1","acct":"alice"},"content":"<p>Tabs or spaces?</p>",
              "poll":{"id":"34830","expires_at":"2026-01-02T00:00:00.000Z","expired":true,"multiple":false,"votes_count":123,
                      "voters_count":123,"options":[{"title":"Tabs","votes_count":60},{"title":"Spaces &amp; more","votes_count":63}]}},
             {"id":"2","created_at":"2026-01-01T00:00:00Z","account":{"id":"a1","acct":"alice"},"content":"<p>Hidden</p>",
              "poll":{"id":"34831","expired":false,"votes_count":1,"options":[{"title":"Yes","votes_count":null},{"title":"No","votes_count":null}]}}]
            """#
        let messages = try MastodonDecoder().decode(Array(status.utf8)).messages
        #expect(messages.first { $0.id == "1" }?.text == "Tabs or spaces?\n\nPoll, 123 votes, closed:\n- Tabs: 60 (49%)\n- Spaces & more: 63 (51%)")
        #expect(messages.first { $0.id == "2" }?.text == "Hidden\n\nPoll, 1 vote, open:\n- Yes\n- No")
    }

    @Test func contentLargerThanItsLimitIsRefusedBeforeConversion() throws {
        func status(_ content: String) -> [UInt8] {
            Array(#"[{"id":"1","created_at":"2026-01-01T00:00:00Z","account":{"id":"a1","acct":"alice"},"content":"\#(content)"}]"#.utf8)
        }
        let limit = MastodonHTML.maximumContentBytes
        #expect(limit == 1_000_000)
        // At the limit: converted (the markup goes, the text stays within its own limit).
        let atLimit = "<b>" + String(repeating: "<i></i>", count: (limit - 7) / 7) + String(repeating: "x", count: (limit - 7) % 7) + "</b>"
        #expect(atLimit.utf8.count == limit)
        #expect(try MastodonDecoder().decode(status(atLimit)).messages.first?.text == String(repeating: "x", count: (limit - 7) % 7))
        do {
            _ = try MastodonDecoder().decode(status(atLimit + " "), sourceName: "home.json")
            Issue.record("content over the limit was accepted")
        } catch {
            #expect(error.problem == .textTooLong(bytes: limit + 1, limit: limit))
            #expect("\(error)".contains("content"))
            #expect("\(error)".contains("1,000,000 bytes"))
        }
    }
}
