import Testing
@testable import TimelineKit

/// The cases issue 25 names, pinned without the SDK (which `BlueskyRichTextSDKTests` compares
/// with on a whole corpus): the facets the official SDK writes for them.
@Suite struct BlueskyRichTextTests {
    private func facets(_ text: String) -> [String] {
        BlueskyRichText.detectFacets(in: text).map { facet in
            let covered = String(decoding: Array(text.utf8)[facet.start ..< facet.end], as: UTF8.self)
            switch facet.feature {
            case let .link(uri): return "link \(covered) → \(uri)"
            case let .mention(handle): return "mention \(covered) → \(handle)"
            case let .tag(tag): return "tag \(covered) → \(tag)"
            }
        }
    }

    @Test func aLinkWithBalancedParenthesesKeepsTheClosingOne() {
        #expect(facets("see https://en.wikipedia.org/wiki/Swift_(programming_language).")
            == ["link https://en.wikipedia.org/wiki/Swift_(programming_language) → https://en.wikipedia.org/wiki/Swift_(programming_language)"])
        #expect(facets("(https://example.com/a)") == ["link https://example.com/a → https://example.com/a"])
    }

    @Test func aMentionFollowedByPunctuationIsStillAMention() {
        for text in ["@alice.bsky.social's post", "@alice.bsky.social, hi", "hi @alice.bsky.social.", "(@alice.bsky.social)"] {
            #expect(facets(text) == ["mention @alice.bsky.social → alice.bsky.social"], "\(text)")
        }
        // Not a handle: no top-level domain, an unknown one, or glued to a word.
        #expect(facets("@alice @alice.bsky.nope mail@alice.bsky.social").isEmpty)
    }

    @Test func anIdeographicSpaceSeparatesWordsForLinksMentionsAndTags() {
        #expect(facets("見て\u{3000}https://example.com/a\u{3000}です") == ["link https://example.com/a → https://example.com/a"])
        #expect(facets("こんにちは\u{3000}@alice.bsky.social\u{3000}さん") == ["mention @alice.bsky.social → alice.bsky.social"])
        #expect(facets("日本語\u{3000}#タグ\u{3000}です") == ["tag #タグ → タグ"])
    }

    @Test func cjkPunctuationEndsATagAndTheFullWidthNumberSignStartsOne() {
        #expect(facets("#東京。") == ["tag #東京 → 東京"])
        #expect(facets("「#タグ」") == [])  // `「` is not white space: no tag starts there
        #expect(facets("\u{3000}#タグ」です") == ["tag #タグ」です → タグ」です"])
        #expect(facets("＃日本語のタグ。") == ["tag ＃日本語のタグ → 日本語のタグ"])
        #expect(facets("#标签！") == ["tag #标签 → 标签"])
    }

    @Test func trailingPunctuationOfLinksAndTagsAsTheReferenceDropsIt() {
        // One of `.,;:!?` goes, then a `)` the link does not open.
        #expect(facets("https://example.com/a?!") == ["link https://example.com/a? → https://example.com/a?"])
        #expect(facets("https://example.com/a).") == ["link https://example.com/a → https://example.com/a"])
        // A tag loses every trailing punctuation character, any script's.
        #expect(facets("#tag!!…") == ["tag #tag → tag"])
        #expect(facets("#123 #1st") == ["tag #1st → 1st"])
    }

    @Test func bareDomainsCashtagsAndByteRangesInUTF8() {
        #expect(facets("🎉 example.com/x.") == ["link example.com/x → https://example.com/x"])
        #expect(facets("file.txt example.COM").isEmpty)
        #expect(facets("($aapl) $ABCDEF") == ["tag $aapl → $AAPL"])
        let text = "é ＃タグ"
        let facet = BlueskyRichText.detectFacets(in: text)
        #expect(facet.map(\.start) == [3])
        #expect(facet.map(\.end) == [text.utf8.count])
    }
}
