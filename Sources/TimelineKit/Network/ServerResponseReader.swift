/// Reads the JSON body of a server's answer with the import's strict parser, so a truncated or
/// malformed body, or one of the wrong shape, becomes a `ServerError.invalidResponse` that
/// names the URL, the place in the body (line, column, JSON path) and what was wrong.
enum ServerResponseReader {
    /// The one JSON document of `response` (the answer to `url`), read by `read`.
    static func read<T>(
        _ response: HTTPResponse, from url: String, _ read: (JSONNode) throws(JSONLineFailure) -> T
    ) throws(ServerError) -> T {
        try self.read(body: body(of: response, from: url), from: url, read)
    }

    /// The body of `response`, refused when the server says it is not JSON (an HTML error page
    /// of a proxy in front of the server, say).
    static func body(of response: HTTPResponse, from url: String) throws(ServerError) -> [UInt8] {
        if let type = response.header("Content-Type"), !type.lowercased().contains("json") {
            throw .invalidResponse(url: url, problem: "it is \(QuotedValue.quoted(type)), not JSON.")
        }
        return response.body
    }

    /// The one JSON document in `body` (from `url`, or an event of the stream at `url`).
    static func read<T>(
        body: [UInt8], from url: String, _ read: (JSONNode) throws(JSONLineFailure) -> T
    ) throws(ServerError) -> T {
        do throws(JSONLineFailure) {
            return try read(try JSONFields.document(body))
        } catch {
            // Deeper than timeline reads is its limit met, not a server that broke its API.
            if case let .nestedTooDeep(limit) = error.problem { throw .answerTooDeep(url: url, limit: limit) }
            throw .invalidResponse(url: url, problem: problem(error, in: body))
        }
    }

    /// "at line 1, column 532 of its 5321 bytes: `[0].account` is missing." from a parser failure.
    static func problem(_ failure: JSONLineFailure, in body: [UInt8]) -> String {
        let sentence = failure.problem.sentence(field: failure.field)
        guard let offset = failure.offset else { return sentence }
        return "at \(JSONFields.position(of: offset, in: body)) of its \(body.count) bytes: \(sentence)"
    }

    /// The `error` (and `error_description`, or XRPC's `message`) of a JSON error body, made safe for a terminal,
    /// shortened, and with any secret of the request removed should the server quote one.
    static func errorMessage(_ body: [UInt8], hiding secrets: [String]) -> String {
        guard let answer = try? JSONFields.document(body) else { return "" }
        var text = [answer.text("error"), answer.text("error_description"), answer.text("message")].compactMap { $0 }.joined(separator: ": ")
        text = Secrets(secrets).hide(in: text)
        let safe = TerminalText.line(text)
        return safe.count > 200 ? String(safe.prefix(200)) + "…" : safe
    }
}
