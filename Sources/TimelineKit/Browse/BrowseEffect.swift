/// What the view asks of the program running it after a key or an update: the work it cannot
/// do itself because it needs the database, the browser or the process. The program does it
/// and hands the answer back (`BrowseView.replaceTimeline`, `showThread`, `showSearch`, …).
package enum BrowseEffect: Sendable, Hashable {
    /// Leave the view.
    case quit
    /// Open this web address in the browser.
    case open(url: String)
    /// Fetch (or take from the cache), check and draw these pictures, where
    /// `BrowseView.pictureLayout` says, and hand back what became of each with
    /// `BrowseView.showPictures(_:)`. Any key closes the picture screen: the program then takes
    /// the pictures off the screen.
    case showPictures(BrowsePictures)
    /// Mark these messages read (`read` true) or unread, in the store.
    case setRead(ids: [String], read: Bool)
    /// Load the page of the timeline after this message (older ones) and hand it to
    /// `BrowseView.appendOlder`. `unreadOnly` as the timeline being shown.
    case loadOlder(after: TimelineCursor, unreadOnly: Bool)
    /// Read the timeline again, unread messages only or all (`BrowseView.replaceTimeline`).
    case reload(unreadOnly: Bool)
    /// Search the store for what the loaded entries do not hold (`BrowseView.showSearch`).
    case searchStore(SearchQuery)
    /// Read the stored conversation around this message (`BrowseView.showThread`).
    case thread(messageID: String)
    /// Do `action` on this message at its server (``AccountSession/act(_:on:in:at:)``) and hand the
    /// outcome to `BrowseView.applied(_:message:)`, or a failure to `show(note:)`.
    case act(MessageAction, messageID: String)
    /// Have the person write a reply to this message in their editor, the terminal given up
    /// meanwhile, and post it (``AccountSession/post(_:in:)``); say how it went with `show(note:)`.
    case reply(to: String)
    /// Mute or block the author of this message, or report it (``BrowseModeration``), the
    /// person having said yes (``BrowseQuestion``): ``AccountSession/moderate(_:userIDs:in:at:)``
    /// or ``AccountSession/report(_:reason:comment:in:)``. After a mute or a block the timeline is
    /// read again (`BrowseView.replaceAfterHiding`), as the store hides the account's posts.
    case moderate(BrowseModeration, messageID: String)
}
