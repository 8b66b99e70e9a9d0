/// How a logout went at the server (``AccountSession/end()``): the account is forgotten here
/// either way.
public enum SessionEnding: Sendable, Equatable {
    /// Access ended at the server: the sentence to add (`The token was revoked at https://…`).
    case ended(String)
    /// Access could not be ended, or is not `timeline`'s to end: what to do instead (`the token
    /// could not be revoked (…); revoke it in the server's settings (authorized apps)`).
    case leftToPerson(String)
}
