/// One list of entries `timeline browse` shows: the timeline, a conversation or search results,
/// with where the selection and the top of the screen are. The view keeps a stack of them:
/// a thread or a search is opened over the timeline and `q` goes back to it as it was.
package struct BrowseListing: Sendable {
    /// What the list is.
    package enum Kind: Sendable, Hashable {
        /// The timeline, newest first; only unread messages when `unreadOnly`.
        case timeline(unreadOnly: Bool)
        /// The stored conversation around a message (its short reference, or its ID).
        case thread(of: String)
        /// The stored messages matching a search.
        case search(String)
    }

    package var kind: Kind
    /// The messages, in the order shown, with what they repost or quote and their authors.
    package var page: TimelinePage
    /// How deep each message sits in a conversation (indented two columns a step); empty for a
    /// flat list.
    package var depths: [Int]
    /// The index of the selected message.
    package var selected = 0
    /// The index of the first message on the screen.
    package var top = 0

    package init(kind: Kind, page: TimelinePage, depths: [Int] = []) {
        self.kind = kind
        self.page = page
        self.depths = depths
    }

    /// The selected message, when the list holds any.
    package var selectedMessage: Message? {
        page.messages.indices.contains(selected) ? page.messages[selected] : nil
    }

    /// The message an entry shows: for a repost, the reposted original when the page holds it.
    func shown(_ message: Message) -> Message {
        guard let original = message.repostOfID else { return message }
        return page.related.first { $0.id == original } ?? page.messages.first { $0.id == original } ?? message
    }

    /// The page with `messages` in place of its own, the selection and the top kept on the
    /// messages they were on when those are still there. A screen at the top of the list stays
    /// at the top, so that new messages come into sight there, as in `show -f`.
    mutating func replaceMessages(with new: TimelinePage) {
        let selectedID = selectedMessage?.id
        let topID = top > 0 && page.messages.indices.contains(top) ? page.messages[top].id : nil
        page = new
        if let selectedID, let index = new.messages.firstIndex(where: { $0.id == selectedID }) { selected = index }
        if let topID, let index = new.messages.firstIndex(where: { $0.id == topID }) { top = index }
        selected = min(selected, max(0, new.messages.count - 1))
        top = min(top, selected)
    }

    /// Sets the read state of the messages `ids` wherever the page holds them.
    mutating func setRead(_ ids: Set<String>, read: Bool) {
        for index in page.messages.indices where ids.contains(page.messages[index].id) { page.messages[index].isRead = read }
        for index in page.related.indices where ids.contains(page.related[index].id) { page.related[index].isRead = read }
    }
}
