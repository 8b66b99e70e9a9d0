extension Message {
    /// The texts a muted word is looked for in: the text, the content warning and each
    /// attachment's alt text (what the person reads of the post), empty ones left out. One list,
    /// so that deciding a verdict (``MutedWordMatcher``) and narrowing which stored messages a new
    /// word may hide (`ModerationCandidates`) can never disagree about where a word may be.
    var matchableTexts: [String] {
        var texts = [text]
        if let warning = contentWarning { texts.append(warning) }
        for attachment in attachments { if let alt = attachment.altText { texts.append(alt) } }
        return texts.filter { !$0.isEmpty }
    }
}
