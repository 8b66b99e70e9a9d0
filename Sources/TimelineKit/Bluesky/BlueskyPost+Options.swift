extension BlueskyPost {
    /// A post made of `draft` under `recordKey`: its text, reply, quote, languages, and the
    /// options of issue 36 Bluesky has: a self-label, the one `draft` names, or for
    /// ``PostDraft/sensitive`` ``SelfLabel/graphicMedia`` (the app's one warning that is not
    /// adult content). Polls, schedules and written warnings are refused before this
    /// (``SessionCapabilities/refusal(of:)-(PostDraft)``).
    init(_ draft: PostDraft, recordKey: String = BlueskyPost.newRecordKey()) {
        self.init(text: draft.text, replyTo: draft.replyTo, quoteOf: draft.quoteOf, languages: draft.languages, recordKey: recordKey)
        contentLabel = draft.contentLabel ?? (draft.sensitive ? .graphicMedia : nil)
        linkCard = draft.linkCard
    }

    /// `,"labels":{…}` for the record's JSON object when it has a label: the self-labels
    /// object the official app writes (`{"$type":"com.atproto.label.defs#selfLabels",
    /// "values":[{"val":"graphic-media"}]}`).
    func appendLabels(to record: inout [UInt8]) {
        guard let contentLabel else { return }
        record += Array(#","labels":{"$type":"com.atproto.label.defs#selfLabels","values":[{"val":"#.utf8)
        JSONLineEncoder.appendString(contentLabel.rawValue, to: &record)
        record += Array("}]}".utf8)
    }
}
