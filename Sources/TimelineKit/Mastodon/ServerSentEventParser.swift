/// Reads a `text/event-stream` as it arrives, in chunks of any size, and returns its events, as
/// the WHATWG HTML standard's "Server-sent events" section (§9.2.6, "Interpreting an event
/// stream") says:
///
/// - lines end with CR LF, LF or CR, and a CR LF split between two chunks is one line end;
/// - a UTF-8 byte order mark at the very start is skipped; the text is UTF-8, with invalid
///   bytes read as U+FFFD;
/// - a line starting with `:` is a comment (Mastodon's `:thump` keep-alives);
/// - `field: value` (one space after the colon dropped), or a line that is only a field name;
///   `event`, `data`, `id` (refused when it holds NUL) and `retry` (digits only) are read,
///   every other field ignored;
/// - an empty line dispatches the event when it has data; the event type is reset, the last
///   event ID persists;
/// - an event not ended by an empty line when the stream ends is not dispatched (`finish()`).
///
/// A server we do not control could send one endless line or event, so both are bounded by
/// `maximumEventBytes`: an event (or line) that grows beyond it is dropped whole, counted in
/// `discardedEvents`, and the stream reads on from the next event.
///
/// ```swift
/// var parser = ServerSentEventParser()
/// for event in parser.parse(chunk) { print(event.type, event.data) }
/// ```
public struct ServerSentEventParser: Sendable {
    /// The largest event (its data and field lines together) kept, in bytes.
    public let maximumEventBytes: Int
    /// The last event ID seen (`id` field), kept across events as the standard says; a client
    /// that reconnects sends it back as `Last-Event-ID`.
    public private(set) var lastEventID = ""
    /// The reconnection time the server asked for (`retry` field), in milliseconds.
    public private(set) var reconnectionMilliseconds: Int?
    /// Events dropped for being larger than `maximumEventBytes`.
    public private(set) var discardedEvents = 0

    private var line: [UInt8] = []
    /// Bytes of the current line, those dropped while discarding included: a line is empty
    /// (and ends an event) only when it had none.
    private var lineLength = 0
    private var data: [UInt8] = []
    private var hasData = false
    private var eventType: [UInt8] = []
    private var idBuffer: [UInt8] = []
    /// Bytes of the event being read, its field lines included, to bound its size.
    private var eventBytes = 0
    /// The event grew too large: everything up to the empty line that ends it is dropped.
    private var isDiscarding = false
    /// The previous chunk ended with CR: an LF starting this one belongs to it.
    private var endedWithCarriageReturn = false
    private var isAtStreamStart = true

    /// A parser that keeps events up to `maximumEventBytes` (1 MiB unless told: a Mastodon
    /// status is a few kilobytes, the largest hundreds).
    public init(maximumEventBytes: Int = 1 << 20) {
        self.maximumEventBytes = max(1, maximumEventBytes)
    }

    /// Reads the next bytes of the stream and returns the events they complete, in order.
    public mutating func parse(_ chunk: some Sequence<UInt8>) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if endedWithCarriageReturn {
                endedWithCarriageReturn = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                endedWithCarriageReturn = true
                endLine(into: &events)
            case 0x0A:
                endLine(into: &events)
            default:
                lineLength += 1
                if isDiscarding { continue }
                line.append(byte)
                if eventBytes + line.count > maximumEventBytes { discardEvent() }
            }
        }
        return events
    }

    /// The stream ended. An event that no empty line ended is not dispatched (the standard's
    /// rule: it may be cut short); the parser is ready for a new stream, whose buffers start
    /// empty, keeping `lastEventID` for the reconnection.
    public mutating func finish() {
        line.removeAll()
        lineLength = 0
        resetEvent()
        idBuffer.removeAll()
        isDiscarding = false
        endedWithCarriageReturn = false
        isAtStreamStart = true
    }

    private mutating func endLine(into events: inout [ServerSentEvent]) {
        defer {
            line.removeAll(keepingCapacity: true)
            lineLength = 0
        }
        if isAtStreamStart {
            isAtStreamStart = false
            if line.starts(with: [0xEF, 0xBB, 0xBF]) {
                line.removeFirst(3)
                lineLength -= 3
            }
        }
        if lineLength == 0 {
            if isDiscarding {
                isDiscarding = false
                resetEvent()
            } else {
                dispatch(into: &events)
            }
            return
        }
        if isDiscarding { return }
        eventBytes += line.count + 1
        if eventBytes > maximumEventBytes {
            discardEvent()
            return
        }
        if line[0] == UInt8(ascii: ":") { return }
        let colon = line.firstIndex(of: UInt8(ascii: ":"))
        let name = line[..<(colon ?? line.endIndex)]
        var value = colon.map { line[($0 + 1)...] } ?? []
        if value.first == UInt8(ascii: " ") { value = value.dropFirst() }
        switch String(decoding: name, as: UTF8.self) {
        case "event":
            eventType = Array(value)
        case "data":
            data += value
            data.append(0x0A)
            hasData = true
        case "id":
            if !value.contains(0) { idBuffer = Array(value) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
                reconnectionMilliseconds = Int(String(decoding: value, as: UTF8.self))
            }
        default:
            break
        }
    }

    private mutating func dispatch(into events: inout [ServerSentEvent]) {
        lastEventID = String(decoding: idBuffer, as: UTF8.self)
        guard hasData else {
            resetEvent()
            return
        }
        data.removeLast()  // the line feed after the last data line
        let type = eventType.isEmpty ? "message" : String(decoding: eventType, as: UTF8.self)
        events.append(ServerSentEvent(type: type, data: String(decoding: data, as: UTF8.self), lastEventID: lastEventID))
        resetEvent()
    }

    private mutating func discardEvent() {
        if !isDiscarding { discardedEvents += 1 }
        isDiscarding = true
        line.removeAll()
    }

    /// Clears what belongs to one event; the ID buffer persists, as the standard says.
    private mutating func resetEvent() {
        data.removeAll(keepingCapacity: true)
        hasData = false
        eventType.removeAll()
        eventBytes = 0
    }
}
