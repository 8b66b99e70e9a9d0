import Synchronization

/// One request made by one `curl` process, run on a ``DedicatedThread``: it spawns curl, writes
/// the configuration and the body to it, reads the header dump and the body as they come, and
/// reaps curl before it returns, whatever happened (no zombie, no orphan).
///
/// Other threads reach it only through ``cancel()`` and ``stop()``, which wake its pump; the
/// thread then kills curl itself.
final class CurlExchange: Sendable {
    /// A piece of a streamed body, with the response's status.
    struct Chunk: Sendable {
        let status: Int
        let bytes: [UInt8]
    }

    private let request: HTTPRequest
    private let configuration: CurlConfiguration
    private let executable: String
    private let wakeup: ChildProcess.Wakeup
    private let ending = Mutex(Ending.none)

    private enum Ending { case none, cancelled, stopped }

    /// How long past the request's timeout the pump waits for curl's own `--max-time` to end
    /// it, before ending it itself.
    private static let grace: Duration = .seconds(2)

    init(request: HTTPRequest, configuration: CurlConfiguration, executable: String) throws(HTTPTransportError) {
        self.request = request
        self.configuration = configuration
        self.executable = executable
        do throws(ChildProcess.SpawnError) {
            wakeup = try ChildProcess.Wakeup()
        } catch {
            throw .unavailable(reason: "cannot create a pipe (\(error.reason))")
        }
    }

    /// The task was cancelled: end curl now.
    func cancel() {
        ending.withLock { if $0 == .none { $0 = .cancelled } }
        wakeup.signal()
    }

    /// The stream's reader wants no more: end curl now.
    func stop() {
        ending.withLock { if $0 == .none { $0 = .stopped } }
        wakeup.signal()
    }

    /// Runs the exchange. With `chunks`, the body is handed over as it arrives (and not kept);
    /// without, it is collected, up to the request's `maximumResponseBytes`.
    func run(chunks: AsyncStream<Chunk>.Continuation?) -> Result<HTTPResponse, HTTPTransportError> {
        let streaming = chunks != nil
        let child: ChildProcess
        // curl dies with this process: a killed `show -f` leaves no stream behind (issue 24).
        let program = ChildProcess.dyingWithParent(executable: executable, arguments: CurlConfiguration.arguments)
        do throws(ChildProcess.SpawnError) {
            child = try ChildProcess(
                executable: program.executable, arguments: program.arguments,
                descriptors: [
                    0: .input(configuration.text), 1: .output, 2: .output,
                    CurlConfiguration.bodyDescriptor: .input(request.body ?? []),
                    CurlConfiguration.headerDescriptor: .output,
                ],
                wakeup: wakeup)
        } catch {
            if error.isNotFound {
                return .failure(.unavailable(reason: "the curl program is not installed (looked for \(executable)); install curl, e.g. apt-get install curl"))
            }
            return .failure(.unavailable(reason: "cannot start curl (\(error.reason))"))
        }

        var parser = ResponseHeadParser()
        var body: [UInt8] = []
        var messages: [UInt8] = []
        var failure: HTTPTransportError?
        let limit = request.maximumResponseBytes

        func readHead(_ bytes: [UInt8]) -> Bool {
            do throws(ResponseHeadParser.Failure) {
                try parser.append(bytes)
                return true
            } catch {
                failure = switch error {
                case let .notHTTP(line): .malformedResponse(url: request.url, reason: "the answer does not start with an HTTP status line: \(CurlFailure.message(fromStandardError: Array(line.utf8)))")
                case .tooLarge: .malformedResponse(url: request.url, reason: "its headers are larger than \(ResponseHeadParser.limit) bytes")
                }
                return false
            }
        }

        let clock = ContinuousClock()
        let end = child.pump(
            idleTimeout: streaming ? request.timeout : nil,
            deadline: streaming ? nil : clock.now + request.timeout + Self.grace
        ) { target, bytes in
            switch target {
            case CurlConfiguration.headerDescriptor:
                return readHead(bytes)
            case 1:
                // curl writes (and flushes) the whole head before the first byte of the body,
                // so what the body overtook is already waiting in the header pipe.
                if parser.head == nil, !readHead(child.drain(CurlConfiguration.headerDescriptor)) { return false }
                guard let head = parser.head else {
                    failure = .malformedResponse(url: request.url, reason: "the body came without a status line")
                    return false
                }
                if let chunks {
                    chunks.yield(Chunk(status: head.status, bytes: bytes))
                } else {
                    body += bytes
                    if body.count > limit {
                        failure = .responseTooLarge(url: request.url, limit: limit)
                        return false
                    }
                }
                return true
            default:
                if messages.count < 4096 { messages += bytes.prefix(4096 - messages.count) }
                return true
            }
        }
        if end != .finished { child.kill() }
        let termination = child.wait()

        let head = parser.head
        let response = head.map { HTTPResponse(status: $0.status, headers: $0.headers, body: body) }
        switch ending.withLock({ $0 }) {
        case .cancelled:
            if streaming, let response { return .success(response) }
            return .failure(.cancelled(url: request.url))
        case .stopped:
            if let response { return .success(response) }
        case .none:
            break
        }
        if let failure { return .failure(failure) }
        if end == .timedOut { return .failure(.timedOut(url: request.url, after: request.timeout)) }
        switch termination {
        case .exited(0):
            guard let response else {
                return .failure(.malformedResponse(url: request.url, reason: "no HTTP status line came back"))
            }
            return .success(response)
        case let .exited(status):
            // A stream the server or the network ended after its head is a stream that ended.
            if streaming, let response, [18, 52, 56].contains(status) { return .success(response) }
            return .failure(CurlFailure.error(
                exitStatus: status, message: CurlFailure.message(fromStandardError: messages), request: request))
        case let .signalled(signal):
            return .failure(.cannotConnect(url: request.url, reason: "curl was ended by signal \(signal)"))
        }
    }
}
