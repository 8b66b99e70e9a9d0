/// Why a source cannot do something, or cannot be registered: the one error a source's
/// missing action is refused with, whether the command line refused it from the source's
/// ``SessionCapabilities`` before any request or a default implementation of ``AccountSession``
/// was called.
public enum SourceError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `source` (a network's display name: `Bluesky`) cannot do `action`. `reason` is the
    /// source's own sentence for it (``SessionCapabilities/refusals``: what it cannot do and what
    /// to do instead), `nil` for the sentence every source shares.
    case unsupported(action: SourceAction, source: String, reason: String?)
    /// A network's word cannot name a source: it is not 1 to 32 lowercase ASCII letters,
    /// digits and `-` starting with a letter (``MessageSource/isValidName(_:)``).
    case invalidName(String)
    /// A network of that word is registered already (a built-in one, or one registered before).
    case alreadyRegistered(String)

    public var description: String {
        switch self {
        case let .unsupported(action, source, reason):
            reason ?? "\(source) accounts cannot \(action) in timeline; do it in \(source)'s own app, or with an account of a network that can."
        case let .invalidName(name):
            // `String(reflecting:)` quotes it with its control characters escaped: the name may be anyone's.
            "\(String(reflecting: name)) cannot name a network: use 1 to 32 lowercase ASCII letters, digits and '-', starting with a letter (for example 'weather')."
        case let .alreadyRegistered(name):
            "a network named '\(name)' is registered already: register each network once, under a word of its own."
        }
    }
}
