/// One feed of an OPML list.
public struct OPMLSubscription: Sendable, Hashable {
    /// The feed's address (`xmlUrl`), as written.
    public var feedURL: String
    /// Its name (`title`, else `text`), when the list gives one.
    public var title: String?
    /// The site (`htmlUrl`), when given.
    public var homeURL: String?
    /// The names of the outlines it is nested in, outermost first: its folders.
    public var folders: [String]

    /// A subscription to write into a list.
    public init(feedURL: String, title: String? = nil, homeURL: String? = nil, folders: [String] = []) {
        self.feedURL = feedURL
        self.title = title
        self.homeURL = homeURL
        self.folders = folders
    }
}
