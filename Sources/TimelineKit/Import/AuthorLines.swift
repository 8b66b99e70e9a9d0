/// Which authors the messages of an import name, and where each is first named, to report an
/// unknown author at its line.
struct AuthorLines {
    var firstNamed: [String: (messageID: String, line: Int)] = [:]
    var definedIDs = Set<String>()
    /// Consecutive messages often share an author; this skips the hash lookup for them.
    private var lastNamed: String?

    mutating func named(_ authorID: String, by messageID: String, line: Int) {
        if authorID == lastNamed { return }
        lastNamed = authorID
        if firstNamed[authorID] == nil { firstNamed[authorID] = (messageID, line) }
    }

    mutating func defined(_ userID: String) {
        definedIDs.insert(userID)
    }
}
