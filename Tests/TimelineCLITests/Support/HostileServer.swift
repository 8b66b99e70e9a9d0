import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The scripted loopback server of `tools/hostile-server/` (Python 3, standard library): it
/// answers each path what the test tells it to (status, headers, body with the request's own
/// `Authorization` quoted back, delays, trickles, silent streams), and records every request with
/// its `Authorization` value and scheme. Over https (`tls:`) it also listens on a plain-http port
/// sharing the same routes and record, which the control calls use.
///
/// ```swift
/// let certificate = try TestCertificate()
/// let server = try HostileServer(tls: certificate)
/// try server.route("/api/v2/instance", body: #"{"configuration":{"urls":{"streaming":"\#(server.plainURL)"}}}"#)
/// ```
final class HostileServer: @unchecked Sendable {
    // @unchecked Sendable: every stored property is a constant; `Process` is only touched by
    // `deinit`, after every other use.
    static let script = Scenario.repositoryPath("tools/hostile-server/server.py")

    let port: Int
    /// The plain-http port: the same as `port` without TLS.
    let plainPort: Int
    let tls: Bool
    private let process: Process

    /// `http://127.0.0.1:PORT`, or `https://` over TLS.
    var baseURL: String { "\(tls ? "https" : "http")://127.0.0.1:\(port)" }
    /// `http://127.0.0.1:PLAIN`: the same server without TLS.
    var plainURL: String { "http://127.0.0.1:\(plainPort)" }

    init(tls certificate: TestCertificate? = nil) throws {
        tls = certificate != nil
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        var arguments = ["python3", Self.script, "--port", "0", "--idle-timeout", MastodonTestServer.idleTimeout]
        if let certificate { arguments += ["--tls", certificate.certificatePath, certificate.keyPath] }
        process.arguments = arguments
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let expectedLines = certificate == nil ? 1 : 2
        var text = Data()
        while text.filter({ $0 == 0x0A }).count < expectedLines {
            let more = output.fileHandleForReading.availableData
            if more.isEmpty {
                let message = String(decoding: errors.fileHandleForReading.availableData, as: UTF8.self)
                throw MastodonTestServer.StartFailure(description: "the hostile server did not start: \(message)")
            }
            text += more
        }
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
        guard let first = lines.first, first.hasPrefix("PORT "), let port = Int(first.dropFirst(5)) else {
            throw MastodonTestServer.StartFailure(description: "the hostile server said \(lines)")
        }
        self.port = port
        plainPort = lines.count > 1 && lines[1].hasPrefix("PLAIN ") ? Int(lines[1].dropFirst(6)) ?? port : port
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }

    /// One answer (see the server's documentation for the fields).
    static func answer(
        status: Int = 200, headers: [String: String] = [:], body: String = "", delay: Double? = nil,
        trickle: Double? = nil, hold: Double? = nil
    ) -> [String: Any] {
        var answer: [String: Any] = ["status": status, "headers": headers, "body": body]
        if let delay { answer["delay"] = delay }
        if let trickle { answer["trickle"] = trickle }
        if let hold { answer["hold"] = hold }
        return answer
    }

    /// Sets the answers of `path`, used in order (the last for every later request).
    func route(_ path: String, _ answers: [String: Any]...) throws {
        try control("routes", [path: answers])
    }

    /// Sets the answers of several paths at once.
    func routes(_ table: [String: Any]) throws {
        try control("routes", table)
    }

    /// Every request so far: method, path, query, authorization, scheme, started_at.
    func requests() throws -> [[String: Any]] {
        try control("requests") as? [[String: Any]] ?? []
    }

    @discardableResult
    private func control(_ name: String, _ body: Any? = nil) throws -> Any {
        var request = URLRequest(url: URL(string: "\(plainURL)/_control/\(name)")!)
        request.httpMethod = body == nil ? "GET" : "POST"
        if let body {
            request.httpBody = try JSONSerialization.data(withJSONObject: body)
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return try JSONSerialization.jsonObject(with: MastodonTestServer.fetch(request), options: [.fragmentsAllowed])
    }
}

/// A self-signed certificate for 127.0.0.1 made by `openssl` for one test in a temporary
/// directory, and removed with it: no private key is ever committed. curl trusts it as its own
/// CA (`CURL_CA_BUNDLE`).
final class TestCertificate: @unchecked Sendable {
    // @unchecked Sendable: constants only.
    let directory: String
    var certificatePath: String { directory + "/cert.pem" }
    var keyPath: String { directory + "/key.pem" }

    init() throws {
        directory = NSTemporaryDirectory() + "timeline-cert-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes",
            "-keyout", keyPath, "-out", certificatePath, "-days", "2", "-subj", "/CN=127.0.0.1",
            "-addext", "subjectAltName=IP:127.0.0.1,IP:::1,DNS:localhost",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw MastodonTestServer.StartFailure(description: "openssl could not make a test certificate (is openssl installed?)")
        }
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
