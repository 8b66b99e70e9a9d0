#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MastodonPost {
    /// A post made of `draft` under `idempotencyKey`: its text, warning, reply, quote,
    /// visibility, and the options of issue 36 (its first language, sensitive media, poll, time).
    init(_ draft: PostDraft, idempotencyKey: String) {
        self.init(text: draft.text, contentWarning: draft.contentWarning, replyTo: draft.replyTo, quoteOf: draft.quoteOf,
                  visibility: draft.visibility, idempotencyKey: idempotencyKey)
        language = draft.languages.first
        sensitive = draft.sensitive
        poll = draft.poll
        scheduledAt = draft.scheduledAt
    }

    /// The fields of issue 36's options, each after a comma, for the body's JSON object:
    /// `language`, `sensitive`, `poll` (`options`, `expires_in`, `multiple`), `scheduled_at`.
    func appendOptions(to bytes: inout [UInt8]) {
        if let language {
            bytes += Array(#","language":"#.utf8)
            JSONLineEncoder.appendString(language, to: &bytes)
        }
        if sensitive { bytes += Array(#","sensitive":true"#.utf8) }
        if let poll {
            bytes += Array(#","poll":{"options":["#.utf8)
            for (index, option) in poll.options.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONLineEncoder.appendString(option, to: &bytes)
            }
            bytes += Array(#"],"expires_in":\#(poll.expiresIn),"multiple":\#(poll.multiple)}"#.utf8)
        }
        if let scheduledAt {
            bytes += Array(#","scheduled_at":"#.utf8)
            JSONLineEncoder.appendString(ServerError.timestamp(scheduledAt), to: &bytes)
        }
    }
}
