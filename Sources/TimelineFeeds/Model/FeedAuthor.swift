/// A person or organisation named as an author.
public struct FeedAuthor: Sendable, Hashable {
    /// The name shown, `nil` when only an address is given.
    public var name: String?
    /// Their web page, absolute.
    public var url: String?
    /// Their e-mail address (RSS `author` is one, often with the name in parentheses).
    public var email: String?

    /// An author; at least one field should be set for it to be shown.
    public init(name: String? = nil, url: String? = nil, email: String? = nil) {
        self.name = name
        self.url = url
        self.email = email
    }

    /// What to show: the name, else the e-mail address, else the web page.
    public var displayName: String? { name ?? email ?? url }
}
