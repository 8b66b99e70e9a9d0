/// The `moderation` column of `messages` (migration 16): what a server said of a message that the
/// person's own rules read, as a JSON object readable from the `sqlite3` shell, NULL when there
/// is nothing: `{"filters":[{"action":"warn","id":"host/19972","title":"…"}],"labels":[{"author":true,"src":"did:…","val":"porn"}]}`
/// (keys sorted, `author` only when true, a filter's `id` only where the server gave one, empty
/// lists left out). The filter's ID is kept so that a filter the person deletes on the server
/// stops counting for what is already stored (`ModerationRules.filterCounts`).
///
/// Written and read by hand, as `AttachmentsColumn` is and for its reasons: the upsert compares
/// the column's text, so the same facts must always be the same bytes.
enum ModerationColumn {
    static func encode(_ facts: ModerationFacts) -> String? {
        guard !facts.isEmpty else { return nil }
        var bytes: [UInt8] = [UInt8(ascii: "{")]
        if !facts.filterMatches.isEmpty {
            bytes += Array(#""filters":["#.utf8)
            for (index, match) in facts.filterMatches.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes += Array(#"{"action":"#.utf8)
                JSONLineEncoder.appendString(match.action.rawValue, to: &bytes)
                if let filterID = match.filterID {
                    bytes += Array(#","id":"#.utf8)
                    JSONLineEncoder.appendString(filterID, to: &bytes)
                }
                bytes += Array(#","title":"#.utf8)
                JSONLineEncoder.appendString(match.title, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        if !facts.labels.isEmpty {
            if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
            bytes += Array(#""labels":["#.utf8)
            for (index, label) in facts.labels.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(UInt8(ascii: "{"))
                if label.isOnAuthor { bytes += Array(#""author":true,"#.utf8) }
                bytes += Array(#""src":"#.utf8)
                JSONLineEncoder.appendString(label.source, to: &bytes)
                bytes += Array(#","val":"#.utf8)
                JSONLineEncoder.appendString(label.value, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            bytes.append(UInt8(ascii: "]"))
        }
        bytes.append(UInt8(ascii: "}"))
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Unreadable JSON (written by hand with the `sqlite3` shell) reads as no facts rather than
    /// making the timeline unreadable; entries without their string fields are skipped, and an
    /// unknown filter action reads as `warn` (painted collapsed: never shown as if unfiltered,
    /// never hidden without a known reason).
    static func decode(_ json: String?) -> ModerationFacts {
        guard var json, !json.isEmpty else { return .none }
        return json.withUTF8 { bytes -> ModerationFacts in
            var parser = JSONTreeParser(bytes)
            guard let document = try? parser.nextDocument(), document.isObject else { return .none }
            var facts = ModerationFacts()
            for element in document["filters"]?.arrayValue ?? [] {
                guard let title = element["title"]?.stringValue else { continue }
                let action = element["action"]?.stringValue.flatMap(FilterAction.init(rawValue:)) ?? .warn
                facts.filterMatches.append(FilterMatch(title: title, action: action, filterID: element["id"]?.stringValue))
            }
            for element in document["labels"]?.arrayValue ?? [] {
                guard let source = element["src"]?.stringValue, let value = element["val"]?.stringValue else { continue }
                facts.labels.append(ContentLabel(source: source, value: value, isOnAuthor: Self.isTrue(element["author"])))
            }
            return facts
        }
    }

    private static func isTrue(_ node: JSONNode?) -> Bool {
        if case .bool(true)? = node?.value { return true }
        return false
    }
}
