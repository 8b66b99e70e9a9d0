/// What a network's session is made with (``Account/Network``'s `makeSession`): the accounts
/// file it came from (a session refreshed at its server is written back there), the transport
/// its requests go through, how patient they are, and the clock of its syncs.
public struct SessionContext: Sendable {
    /// The accounts file the account was read from.
    public var accounts: AccountStore
    /// Where the session's requests go (`CurlTransport()`; a test's fake server).
    public var transport: any HTTPTransport
    /// How many attempts a request gets, and how long it may take.
    public var policy: RequestPolicy
    /// The clock a sync reads (a test's fixed one).
    public var clock: SyncClock

    /// The context of a session made by ``AccountStore/session(for:transport:policy:clock:)``.
    public init(accounts: AccountStore, transport: any HTTPTransport, policy: RequestPolicy = RequestPolicy(), clock: SyncClock = .system) {
        self.accounts = accounts
        self.transport = transport
        self.policy = policy
        self.clock = clock
    }
}
