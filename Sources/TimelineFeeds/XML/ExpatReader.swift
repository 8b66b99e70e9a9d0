#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TimelineExpat
import TimelineKit

/// Reads an XML document into an `XMLElement` tree with expat: the only file that calls expat,
/// as `Store/SQLiteConnection.swift` is the only one that calls SQLite. C types stay here.
///
/// What a hostile document meets (issue 35):
/// - No external anything: expat does no I/O of its own, parameter entities are never parsed
///   (`XML_PARAM_ENTITY_PARSING_NEVER`, expat's default, set anyway), no handler loads an
///   external entity, and a declared external entity stops the parse as
///   ``FeedError/Problem/externalEntity(name:)``, so an XXE attempt reads nothing and says so.
/// - Entity expansion is bounded twice: expat's billion-laughs protection (on by default since
///   expat 2.4; its limits tightened from `FeedLimits`) and a count of all text produced.
/// - Depth, attribute length and document length are bounded by `FeedLimits`.
/// - The whole document goes to expat in one `XML_Parse` call marked final, so a large token
///   is scanned once, not again at every buffer refill (the quadratic case expat 2.6 fixed for
///   streaming callers with reparse deferral).
///
/// Undeclared entities (`&nbsp;` in a feed with no DTD, common in real feeds): the parser is
/// told to assume an external DTD it never reads (`XML_UseForeignDTD`), which makes an unknown
/// entity "skipped" instead of fatal, and a skipped entity in text is decoded as the HTML
/// character reference of that name, as feed readers do (left as `&name;` when HTML has none).
/// In attribute values expat cannot report it, and it is dropped.
///
/// Encodings: expat reads UTF-8, UTF-16, ISO-8859-1 and US-ASCII itself; windows-1252 (declared
/// by many older feeds) is described to it through the unknown-encoding handler. Any other is
/// ``FeedError/Problem/unsupportedEncoding(_:)``.
enum ExpatReader {
    /// The document element of `bytes`.
    static func read(_ bytes: [UInt8], limits: FeedLimits = FeedLimits()) throws(FeedError) -> XMLElement {
        guard bytes.count <= limits.maximumBytes else {
            throw FeedError(.tooLarge(bytes: bytes.count, limit: limits.maximumBytes))
        }
        // `Int32` is expat's length type: the limit keeps it far below, checked again here
        // because a caller can raise the limit.
        guard bytes.count < Int(Int32.max) else {
            throw FeedError(.tooLarge(bytes: bytes.count, limit: Int(Int32.max) - 1))
        }
        guard let parser = XML_ParserCreate(nil) else {
            fatalError("expat could not allocate a parser: out of memory")
        }
        defer { XML_ParserFree(parser) }
        let builder = TreeBuilder(parser: parser, limits: limits)
        // The builder outlives the parse: `withExtendedLifetime` below keeps it alive until
        // `XML_Parse` has returned, and expat calls the handlers only from inside that call.
        let userData = Unmanaged.passUnretained(builder).toOpaque()
        XML_SetUserData(parser, userData)
        // Without this, expat passes the external-entity handler the parser instead.
        XML_SetExternalEntityRefHandlerArg(parser, userData)
        configure(parser, limits: limits, userData: userData)

        let status = withExtendedLifetime(builder) {
            bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { characters in
                    XML_Parse(parser, characters.baseAddress, Int32(characters.count), 1)
                }
            }
        }
        if let failure = builder.failure { throw failure }
        guard status == XML_STATUS_OK else { throw error(of: parser, bytes: bytes, encoding: builder.declaredEncoding) }
        guard let root = builder.root else {
            throw FeedError(.malformedXML("no element"), line: 1, column: 1)
        }
        return root
    }

    private static func configure(_ parser: XML_Parser, limits: FeedLimits, userData: UnsafeMutableRawPointer) {
        XML_SetParamEntityParsing(parser, XML_PARAM_ENTITY_PARSING_NEVER)
        _ = XML_UseForeignDTD(parser, XML_Bool(XML_TRUE))
        _ = XML_SetBillionLaughsAttackProtectionMaximumAmplification(parser, limits.maximumEntityAmplification)
        _ = XML_SetBillionLaughsAttackProtectionActivationThreshold(parser, limits.entityExpansionThresholdBytes)
        XML_SetElementHandler(parser, { data, name, attributes in
            TreeBuilder.from(data).start(name: name, attributes: attributes)
        }, { data, _ in
            TreeBuilder.from(data).end()
        })
        XML_SetCharacterDataHandler(parser) { data, characters, length in
            guard let characters, length > 0 else { return }
            characters.withMemoryRebound(to: UInt8.self, capacity: Int(length)) { start in
                TreeBuilder.from(data).characters(UnsafeBufferPointer(start: start, count: Int(length)))
            }
        }
        XML_SetSkippedEntityHandler(parser) { data, name, isParameterEntity in
            guard isParameterEntity == 0, let name else { return }
            TreeBuilder.from(data).skippedEntity(String(cString: name))
        }
        XML_SetEntityDeclHandler(parser) { data, name, _, _, _, _, systemID, _, _ in
            guard systemID != nil else { return }
            TreeBuilder.from(data).refuse(.externalEntity(name: name.map { String(cString: $0) } ?? ""))
        }
        // Never called with anything to load: parameter entities are off and external general
        // entities are refused at their declaration. Refusing here too keeps it so if either changes.
        XML_SetExternalEntityRefHandler(parser) { data, _, _, systemID, _ in
            // `data` is the builder (XML_SetExternalEntityRefHandlerArg), typed as a parser by the C
            // signature. A null system ID is the external DTD `XML_UseForeignDTD` pretends there is:
            // nothing to read.
            guard systemID != nil else { return Int32(XML_STATUS_OK.rawValue) }
            TreeBuilder.from(data.map(UnsafeMutableRawPointer.init)).refuse(.externalEntity(name: systemID.map { String(cString: $0) } ?? ""))
            return Int32(XML_STATUS_ERROR.rawValue)
        }
        XML_SetXmlDeclHandler(parser) { data, _, encoding, _ in
            TreeBuilder.from(data).declaredEncoding = encoding.map { String(cString: $0) }
        }
        // The builder is the handler's data too: it keeps the name for the error when the
        // encoding is not one described here.
        XML_SetUnknownEncodingHandler(parser, { data, name, info in
            guard let name, let info else { return Int32(XML_STATUS_ERROR.rawValue) }
            let encoding = String(cString: name)
            TreeBuilder.from(data).declaredEncoding = encoding
            guard let map = SingleByteEncoding.map(named: encoding) else { return Int32(XML_STATUS_ERROR.rawValue) }
            withUnsafeMutableBytes(of: &info.pointee.map) { raw in
                let entries = raw.bindMemory(to: Int32.self)
                for index in 0 ..< 256 { entries[index] = map[index] }
            }
            info.pointee.data = nil
            info.pointee.convert = nil
            info.pointee.release = nil
            return Int32(XML_STATUS_OK.rawValue)
        }, userData)
    }

    /// Expat's failure as a `FeedError` at its line and column.
    private static func error(of parser: XML_Parser, bytes: [UInt8], encoding: String?) -> FeedError {
        let code = XML_GetErrorCode(parser)
        let line = Int(XML_GetCurrentLineNumber(parser))
        let column = Int(XML_GetCurrentColumnNumber(parser)) + 1
        let message = XML_ErrorString(code).map { String(cString: $0) } ?? "error \(code.rawValue)"
        let problem: FeedError.Problem = switch code {
        case XML_ERROR_AMPLIFICATION_LIMIT_BREACH: .entityExpansionTooLarge
        case XML_ERROR_UNKNOWN_ENCODING: .unsupportedEncoding(encoding ?? "unknown")
        case XML_ERROR_INCORRECT_ENCODING: .invalidEncoding(message)
        case XML_ERROR_INVALID_TOKEN:
            invalidUTF8(in: bytes, at: Int(XML_GetCurrentByteIndex(parser)), encoding: encoding).map(FeedError.Problem.invalidEncoding)
                ?? .malformedXML(message)
        default: .malformedXML(message)
        }
        return FeedError(problem, line: line, column: column)
    }

    /// Expat calls bytes that are not characters of the document's encoding an "invalid token",
    /// like a stray `<`. In a UTF-8 document (declared so, or declaring nothing) the bytes at the
    /// error tell which: a sequence that is not UTF-8 is an encoding problem, worded as one.
    private static func invalidUTF8(in bytes: [UInt8], at index: Int, encoding: String?) -> String? {
        guard encoding == nil || encoding?.lowercased() == "utf-8", index >= 0, index < bytes.count else { return nil }
        // Expat points at the start of the token that failed, which can hold ASCII before the bad byte.
        let window = bytes[index ..< min(bytes.count, index + 64)]
        guard let bad = window.firstIndex(where: { $0 >= 0x80 }) else { return nil }
        let sequence = bytes[bad ..< min(bytes.count, bad + 4)]
        var decoder = UTF8()
        var iterator = sequence.makeIterator()
        if case .scalarValue = decoder.decode(&iterator) { return nil }
        let shown = sequence.prefix(4).map { "0x" + String($0, radix: 16, uppercase: true) }.joined(separator: " ")
        return "the bytes \(shown) are not UTF-8; the document declares \(encoding ?? "no encoding, which means UTF-8")"
    }
}

/// The handlers' state: the elements open, the namespaces in scope, the limits and the first
/// failure. Used from one `XML_Parse` call on one thread; never shared, so not `Sendable`.
private final class TreeBuilder {
    private struct Open {
        var element: XMLElement
        /// Text not yet closed into a node: bytes, turned into a `String` once, when an element
        /// starts or ends, instead of once per expat callback.
        var pendingText: [UInt8] = []
        /// The namespaces in scope inside this element (prefix, `""` for the default).
        var namespaces: [String: String]
    }

    let parser: XML_Parser
    let limits: FeedLimits
    private var open: [Open] = []
    private(set) var root: XMLElement?
    private(set) var failure: FeedError?
    var declaredEncoding: String?
    private var textBytes = 0

    init(parser: XML_Parser, limits: FeedLimits) {
        self.parser = parser
        self.limits = limits
    }

    /// The builder expat hands back as user data. It was passed unretained by `read`, which
    /// keeps it alive for the whole parse.
    static func from(_ data: UnsafeMutableRawPointer?) -> TreeBuilder {
        guard let data else { fatalError("expat called a handler without the user data it was given") }
        return Unmanaged<TreeBuilder>.fromOpaque(data).takeUnretainedValue()
    }

    /// Stops the parse with `problem` at the current place (the first failure wins).
    func refuse(_ problem: FeedError.Problem) {
        guard failure == nil else { return }
        failure = FeedError(problem, line: Int(XML_GetCurrentLineNumber(parser)), column: Int(XML_GetCurrentColumnNumber(parser)) + 1)
        XML_StopParser(parser, XML_Bool(XML_FALSE))
    }

    func start(name: UnsafePointer<XML_Char>?, attributes: UnsafeMutablePointer<UnsafePointer<XML_Char>?>?) {
        guard failure == nil, let name else { return }
        guard open.count < limits.maximumDepth else { return refuse(.nestedTooDeep(limit: limits.maximumDepth)) }
        flushText()
        var pairs: [(name: String, value: String)] = []
        var scope = open.last?.namespaces ?? [:]
        if let attributes {
            var index = 0
            // Expat ends the array of name, value, name, value… with a null pointer.
            while let attributeName = attributes[index], let value = attributes[index + 1] {
                let length = strlen(value)
                guard length <= limits.maximumAttributeBytes else {
                    return refuse(.attributeTooLong(bytes: length, limit: limits.maximumAttributeBytes))
                }
                guard count(text: length) else { return }
                let pair = (name: String(cString: attributeName), value: String(cString: value))
                if pair.name == "xmlns" {
                    scope[""] = pair.value
                } else if pair.name.hasPrefix("xmlns:") {
                    scope[String(pair.name.dropFirst(6))] = pair.value
                }
                pairs.append(pair)
                index += 2
            }
        }
        let qualified = String(cString: name)
        let (namespace, local) = Self.resolve(qualified, in: scope, isAttribute: false)
        let resolved = pairs.map { pair in
            if pair.name == "xmlns" || pair.name.hasPrefix("xmlns:") {
                return XMLAttribute(namespace: XMLNamespace.xmlns, name: pair.name, value: pair.value)
            }
            let (namespace, local) = Self.resolve(pair.name, in: scope, isAttribute: true)
            return XMLAttribute(namespace: namespace, name: local, value: pair.value)
        }
        let element = XMLElement(namespace: namespace, name: local, attributes: resolved, children: [],
                                 line: Int(XML_GetCurrentLineNumber(parser)))
        open.append(Open(element: element, namespaces: scope))
    }

    func end() {
        guard failure == nil, var closed = open.popLast() else { return }
        Self.flush(&closed)
        if open.isEmpty {
            root = closed.element
        } else {
            open[open.count - 1].element.children.append(.element(closed.element))
        }
    }

    func characters(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard failure == nil, !open.isEmpty, count(text: bytes.count) else { return }
        open[open.count - 1].pendingText.append(contentsOf: bytes)
    }

    func skippedEntity(_ name: String) {
        let reference = "&" + name + ";"
        let decoded = HTMLEntities.decode(reference)
        characters(decoded)
    }

    private func characters(_ text: String) {
        var text = text
        text.withUTF8 { characters($0) }
    }

    /// Counts `bytes` more of text against the document's limit; `false` (and the parse
    /// stopped) past it.
    private func count(text bytes: Int) -> Bool {
        textBytes += bytes
        guard textBytes <= limits.maximumTextBytes else {
            refuse(.entityExpansionTooLarge)
            return false
        }
        return true
    }

    private func flushText() {
        guard !open.isEmpty else { return }
        Self.flush(&open[open.count - 1])
    }

    private static func flush(_ element: inout Open) {
        guard !element.pendingText.isEmpty else { return }
        element.element.children.append(.text(String(decoding: element.pendingText, as: UTF8.self)))
        element.pendingText.removeAll(keepingCapacity: true)
    }

    /// The namespace and local name of `qualified` (`dc:creator`). An unprefixed attribute has
    /// no namespace (Namespaces in XML 1.0, section 6.2); an unprefixed element has the default.
    private static func resolve(_ qualified: String, in scope: [String: String], isAttribute: Bool) -> (String, String) {
        guard let colon = qualified.firstIndex(of: ":") else {
            return (isAttribute ? "" : scope[""] ?? "", qualified)
        }
        let prefix = String(qualified[..<colon])
        let local = String(qualified[qualified.index(after: colon)...])
        let namespace = prefix == "xml" ? XMLNamespace.xml : scope[prefix] ?? XMLNamespace.conventionalPrefixes[prefix] ?? prefix + ":"
        return (namespace, local)
    }
}
