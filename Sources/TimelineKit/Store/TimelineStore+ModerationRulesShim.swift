// TEMPORARY until the lead's store API is merged: removed at the merge.
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Synchronization

private let shimRules = Mutex<[String: ModerationRules]>([:])

extension TimelineStore {
    public func moderationRules(account: String) throws(TimelineStoreError) -> ModerationRules {
        shimRules.withLock { $0[account] ?? ModerationRules() }
    }

    public func updateModerationRules(account: String, _ change: (inout ModerationRules) -> Void) throws(TimelineStoreError) {
        shimRules.withLock { all in
            var rules = all[account] ?? ModerationRules()
            change(&rules)
            all[account] = rules
        }
    }
}
