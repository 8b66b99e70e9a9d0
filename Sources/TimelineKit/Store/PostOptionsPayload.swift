#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The post options of issue 36 (sensitive media, a label, a poll, a schedule, no card) as a
/// waiting post keeps them: one JSON object under `post_options` in its outbox row's
/// `payload`, written only when the draft sets one (`nil` otherwise, so older rows and rows
/// without options read alike: a row written before there were options has none).
enum PostOptionsPayload {
    /// The options `draft` sets as one JSON object, or `nil` when it sets none.
    static func encode(_ draft: PostDraft) -> String? {
        var fields: [String] = []
        if draft.sensitive { fields.append(#""sensitive":true"#) }
        if let label = draft.contentLabel { fields.append(#""label":"# + quoted(label.rawValue)) }
        if let poll = draft.poll {
            let options = poll.options.map(quoted).joined(separator: ",")
            fields.append(#""poll":{"options":[\#(options)],"expires_in":\#(poll.expiresIn),"multiple":\#(poll.multiple)}"#)
        }
        if let date = draft.scheduledAt { fields.append(#""scheduled_at":\#(MillisecondTime.milliseconds(from: date))"#) }
        if !draft.linkCard { fields.append(#""no_card":true"#) }
        return fields.isEmpty ? nil : "{" + fields.joined(separator: ",") + "}"
    }

    /// `draft` with the options `text` holds (as ``encode(_:)`` wrote them); what cannot be read
    /// is left at its default, so a damaged row still posts its text.
    static func decode(_ text: String?, into draft: inout PostDraft) {
        guard let text, let object = try? JSONNode(parsing: Array(text.utf8)) else { return }
        if case .bool(true)? = object["sensitive"]?.value { draft.sensitive = true }
        draft.contentLabel = object["label"]?.stringValue.flatMap(SelfLabel.init(rawValue:))
        if let poll = object["poll"], let options = poll["options"]?.arrayValue {
            let strings = options.prefix(PollLimits.hardMaxOptions).compactMap(\.stringValue)
            var expires = PollDraft.defaultExpiresIn
            if case let .number(digits, true, false)? = poll["expires_in"]?.value, let seconds = Int(digits) { expires = seconds }
            var multiple = false
            if case .bool(true)? = poll["multiple"]?.value { multiple = true }
            draft.poll = PollDraft(options: strings, expiresIn: expires, multiple: multiple)
        }
        if case let .number(digits, true, false)? = object["scheduled_at"]?.value, let milliseconds = Int64(digits) {
            draft.scheduledAt = MillisecondTime.date(fromMilliseconds: milliseconds)
        }
        if case .bool(true)? = object["no_card"]?.value { draft.linkCard = false }
    }

    private static func quoted(_ text: String) -> String {
        var bytes: [UInt8] = []
        JSONLineEncoder.appendString(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
