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
}
