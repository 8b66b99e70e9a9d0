import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The loopback Mastodon server of `tools/mastodon-test-server/` (Python 3, standard library),
/// started on a free port of 127.0.0.1 for one test and killed when the value goes away. It
/// also stops by itself when idle or when this test process dies.
///
/// ```swift
/// let server = try MastodonTestServer()
/// let result = try scenario.timeline.run(["login", "mastodon", server.baseURL, "--token-stdin"],
///                                        input: Data(MastodonTestServer.token.utf8))
/// let requests = try server.requests()   // what it was asked, in order
/// ```
final class MastodonTestServer: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a constant; `Process` is only touched by
    // `deinit`, after every other use.

    /// The access token the server accepts from the start (`--token-stdin` tests use it).
    static let token = "loopback-test-token-0123456789abcdef"
    static let script = Scenario.repositoryPath("tools/mastodon-test-server/server.py")
    /// A certificate for 127.0.0.1 and the CA that signed it, for `--tls` servers.
    static let certificate = Scenario.repositoryPath("tools/mastodon-test-server/tls/server-cert.pem")
    static let certificateKey = Scenario.repositoryPath("tools/mastodon-test-server/tls/server-key.pem")
    static let certificateAuthority = Scenario.repositoryPath("tools/mastodon-test-server/tls/ca-cert.pem")

    let port: Int
    let tls: Bool
    private let process: Process

    /// `http://127.0.0.1:PORT` (or `https://` with `tls`).
    var baseURL: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }

    struct StartFailure: Error, CustomStringConvertible {
        let description: String
    }

    /// Starts a server with `statuses` statuses in its home timeline; `arguments` are passed on
    /// (see the server's README). `script` is another loopback server that takes the same
    /// start-up arguments and control calls (`BlueskyTestServer.script`).
    /// Seconds without a request before a loopback server started by a test ends by itself: a
    /// backstop only (each server also ends when this test process is gone, and is stopped when
    /// its test ends). On CI's two loaded cores a test can wait minutes for a thread between
    /// two requests; at 120 s its server had gone by then, and the next request was refused
    /// (stop 31's failing CI, and the "connection refused" seen under load).
    static let idleTimeout = "1800"

    init(statuses: Int = 120, tls: Bool = false, arguments: [String] = [], script: String = MastodonTestServer.script) throws {
        self.tls = tls
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var all = ["python3", script, "--port", "0", "--statuses", String(statuses), "--idle-timeout", Self.idleTimeout]
        if tls { all += ["--tls", Self.certificate, Self.certificateKey] }
        process.arguments = all + arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()

        // The first line is `PORT <n>`, printed once it listens.
        var line = Data()
        while !line.contains(0x0A) {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty {
                let message = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
                throw StartFailure(description: "the test server did not start: \(message)")
            }
            line += more
        }
        let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("PORT "), let port = Int(text.dropFirst(5)) else {
            throw StartFailure(description: "the test server said \(text)")
        }
        self.port = port
    }

    deinit {
        // SIGKILL: the test runner blocks SIGTERM in its threads, and children inherit the mask.
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Ends the server now: its port refuses connections from then on (an offline server).
    func stop() {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// Whether the server process ends by itself within `seconds`.
    func hasExited(within seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        return !process.isRunning
    }

    /// Calls a control endpoint (`state`, `requests`, `settings`, `faults`, `statuses`, …) and
    /// returns its JSON answer.
    @discardableResult
    func control(_ name: String, _ body: Any? = nil) throws -> Any {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/_control/\(name)")!)
        request.httpMethod = body == nil ? "GET" : "POST"
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        precondition(!tls, "control calls go to plain-http servers")
        return try JSONSerialization.jsonObject(with: Self.fetch(request), options: [.fragmentsAllowed])
    }

    /// The requests the server has seen, in order: method, path, query, has_authorization, …
    func requests() throws -> [[String: Any]] {
        try control("requests") as? [[String: Any]] ?? []
    }

    /// The server's state: counts, markers, settings, `revoked_token_sha256`, status IDs.
    func state() throws -> [String: Any] {
        try control("state") as? [String: Any] ?? [:]
    }

    /// The body of a plain-http request, through Foundation (independent of the transport
    /// under test).
    static func fetch(_ request: URLRequest) throws -> Data {
        let done = DispatchSemaphore(value: 0)
        nonisolated(unsafe) var result: Result<Data, any Error> = .failure(StartFailure(description: "no answer"))
        URLSession.shared.dataTask(with: request) { data, _, error in
            result = data.map { .success($0) } ?? .failure(error ?? StartFailure(description: "no data"))
            done.signal()
        }.resume()
        done.wait()
        return try result.get()
    }
}

/// The loopback Bluesky server of `tools/bluesky-test-server/` (an entryway, and the account's
/// PDS on a second port, with the XRPC calls timeline makes), started and controlled as
/// `MastodonTestServer` is: `baseURL` is the entryway, `state()["pds"]` the PDS.
enum BlueskyTestServer {
    static let script = Scenario.repositoryPath("tools/bluesky-test-server/server.py")
    /// The account the server knows, and the app password it accepts.
    static let handle = "me.loopback.test"
    /// The account's DID (the server's `plc("loopback me")`).
    static let did = "did:plc:kxcwo4hvymg66waeustcupu4"
    /// The DID of `user1.loopback.test` (`plc("loopback user 1")`).
    static let user1DID = "did:plc:utwv4glqqnkyz7dppayoiasi"
    static let password = "loop-back-app-pass"

    /// A server with `posts` posts in the home timeline.
    static func start(posts: Int = 120) throws -> MastodonTestServer {
        try MastodonTestServer(statuses: posts, script: script)
    }
}
