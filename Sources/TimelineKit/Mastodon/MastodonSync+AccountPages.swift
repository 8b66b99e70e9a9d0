#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension MastodonSync {
    /// The accounts of one of this account's paged lists (`GET /api/v1/accounts/:id/following`,
    /// `/api/v1/mutes`, `/api/v1/blocks`): 80 a page, the next page where the answer's
    /// `Link: <…>; rel="next"` points (its `max_id` is the follow's, mute's or block's ID, not an
    /// account's), at most `limit` accounts in at most `limit / 40 + 2` requests, so that a server
    /// sending one account a page cannot keep it going. Each account is read by `read`.
    /// `truncated`: the server had more than `limit`.
    ///
    /// One pager for the three lists: they differ in the path and in what is kept of an account
    /// (a mute's end), not in how they are paged and bounded.
    func accountPages<Account>(_ url: String, endpoint: String, feature: String, limit: Int,
                               _ read: (JSONObjectView) throws(JSONLineFailure) -> Account) async throws(ServerError)
        -> (accounts: [Account], truncated: Bool) {
        var accounts: [Account] = []
        var next: String? = url
        var requests = 0
        while let url = next, accounts.count < limit, requests < limit / 40 + 2 {
            requests += 1
            let response = try await client.send(.get, url, feature: feature, endpoint: endpoint)
            let wanted = limit - accounts.count
            let (page, more) = try ServerResponseReader.read(response, from: url) { document throws(JSONLineFailure) in
                let elements = try document.elements(expected: "an array of accounts")
                var page: [Account] = []
                for (index, element) in elements.prefix(wanted).enumerated() {
                    page.append(try read(JSONObjectView(element, path: "[\(index)]", expected: "an account object")))
                }
                return (page, elements.count > wanted)
            }
            accounts += page
            let fields = response.headers(named: "Link")
            next = page.isEmpty || fields.isEmpty ? nil : LinkHeader(fields: fields, base: url).first(relation: "next")?.target
            if more || (accounts.count >= limit && next != nil) { return (accounts, true) }
        }
        return (accounts, next != nil && accounts.count >= limit)
    }

    /// The first page's address of a paged list of accounts at `path`: `limit` a page, 80 at most
    /// (Mastodon's largest).
    func accountPagesURL(_ path: String, limit: Int) -> String {
        client.server.url(path, query: [("limit", String(min(80, max(1, limit))))])
    }
}
