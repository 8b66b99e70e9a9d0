import Testing
@testable import TimelineKit

/// The rules of an account's name (issue 24), held against what the import fuzzer found.
@Suite struct AccountNameTests {
    /// The fuzzer's names run: U+0600, a prepended mark, joins the `@` after it into one
    /// character, and replacing characters left that `@` in a Bluesky default name.
    @Test(arguments: ["\u{600}@x", "\u{FFFD}\u{FFFD}\u{600}@\0\0\0\0\0\0\0!\u{FFFD}\u{FFFD}", "a@b", "@@", "\u{6DD}@"])
    func aBlueskyDefaultNameNeverHoldsAnAt(handle: String) {
        let name = Account.defaultBlueskyName(handle: handle)
        #expect(!name.unicodeScalars.contains("@"), "\(name.debugDescription)")
        #expect(Account.nameProblem(name) == nil, "\(name.debugDescription)")
    }

    @Test func aPlainHandleIsItsOwnName() {
        #expect(Account.defaultBlueskyName(handle: "alice.bsky.social") == "alice.bsky.social")
    }
}
