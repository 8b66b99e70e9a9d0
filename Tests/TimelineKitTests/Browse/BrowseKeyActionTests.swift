import Testing
@testable import TimelineKit

@Suite struct BrowseKeyActionTests {
    @Test func everyKeyGivesTheActionThatListsIt() {
        for action in BrowseKeyAction.allCases {
            #expect(!action.keys.isEmpty)
            for key in action.keys { #expect(BrowseKeyAction(key: key) == action, "\(key)") }
        }
    }

    @Test func noKeyIsBoundTwice() {
        let keys = BrowseKeyAction.allCases.flatMap(\.keys)
        #expect(Set(keys).count == keys.count)
    }

    @Test func fBAndRAreTutsFavouriteBoostAndReply() {
        #expect(BrowseKeyAction(key: .character("f")) == .favourite)
        #expect(BrowseKeyAction(key: .character("b")) == .boost)
        #expect(BrowseKeyAction(key: .character("r")) == .reply)
    }

    @Test func capitalMBAndRMuteBlockAndReport() {
        #expect(BrowseKeyAction(key: .character("M")) == .mute)
        #expect(BrowseKeyAction(key: .character("B")) == .block)
        #expect(BrowseKeyAction(key: .character("R")) == .report)
    }

    @Test func theKeysPeopleKnowAreThere() {
        let expected: [(BrowseKey, BrowseKeyAction)] = [
            (.character("j"), .down), (.down, .down), (.character("k"), .up), (.up, .up),
            (.character(" "), .pageDown), (.pageDown, .pageDown), (.control("f"), .pageDown),
            (.pageUp, .pageUp), (.control("b"), .pageUp), (.character("g"), .top), (.character("G"), .bottom),
            (.character("/"), .search), (.character("n"), .nextMatch), (.character("t"), .thread),
            (.character("m"), .toggleRead), (.character("u"), .toggleUnreadOnly), (.character("o"), .open),
            (.character("?"), .help), (.character("q"), .back), (.escape, .back), (.character("s"), .bookmark),
            (.character("p"), .pictures),
        ]
        for (key, action) in expected { #expect(BrowseKeyAction(key: key) == action, "\(key)") }
    }

    @Test func theHelpTableNamesEveryKeyOfEveryAction() {
        // n and N share a line, ? and Ctrl-L another; every other action has its own.
        #expect(BrowseKeyAction.keyTable.count == BrowseKeyAction.allCases.count - 2)
        #expect(BrowseKeyAction.keyTable.allSatisfy { !$0.keys.isEmpty && !$0.meaning.isEmpty })
        let named = BrowseKeyAction.keyTable.map { $0.keys.split(separator: " ").map(String.init) }
        for action in BrowseKeyAction.allCases {
            let word = action.help.keys.split(separator: " ").first.map(String.init) ?? ""
            #expect(named.contains { $0.contains(word) }, "\(action): \(word) is on no line of the help")
        }
    }
}
