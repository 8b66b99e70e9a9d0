import TimelineKit

#if canImport(Glibc)
import Glibc
#endif

/// The libFuzzer target of issue 12 for what `timeline import` reads: `IMPORT_FUZZ_FORMAT=jsonl`
/// (the default) feeds each input to `JSONLinesReader` as a file, `mastodon` to `MastodonDecoder`,
/// `twitter` to `TwitterDecoder` and `bluesky` to `BlueskyDecoder`. Issue 24: `mastodon-server`
/// and `bluesky-server` decode as a sync does (over-long texts cut with a mark, never refused for
/// their length), and `names` holds each input, as text, to the rules of account names.
///
/// Every input must be refused with an `ImportError` or decoded; never a crash, a hang (the run
/// script gives each input a few seconds, so a quadratic case is a finding), an out-of-bounds
/// read (AddressSanitizer) or an allocation beyond the malloc limit. What is decoded is held to
/// the rules every import promises, and a broken rule traps: a refusal is only ever the
/// `ImportError` of the decode itself, never a failed check.
enum Format: String {
    case jsonl, mastodon, twitter, bluesky
    case mastodonServer = "mastodon-server", blueskyServer = "bluesky-server", names
}

let format = getenv("IMPORT_FUZZ_FORMAT").flatMap { Format(rawValue: String(cString: $0)) } ?? .jsonl

/// A file the JSON Lines reader reads each input from, as it reads any file: an unlinked
/// temporary file, rewritten for every input (the reader takes a descriptor, not bytes).
let scratch: Int32 = {
    var template = Array("/tmp/import-fuzz-XXXXXX".utf8CString)
    let descriptor = mkstemp(&template)
    guard descriptor >= 0 else { fatalError("cannot create a scratch file in /tmp") }
    unlink(&template)
    return descriptor
}()

// MARK: The rules

/// Whether `scalar` may not reach a terminal from input: C0 controls but the line feed, DEL, C1,
/// and the invisible format characters `TerminalText.body` removes (it keeps the joiners and the
/// marks LRM, RLM and ALM, which act within their line only).
func isUnsafe(_ scalar: Unicode.Scalar) -> Bool {
    let value = scalar.value
    switch value {
    // Tag characters stay after a 🏴 (subdivision flags), and they draw nothing anywhere.
    case 0x0A, 0x200C, 0x200D, 0x200E, 0x200F, 0x061C, 0xE0020 ... 0xE007F: return false
    case ..<0x20, 0x7F ... 0x9F: return true
    default: return scalar.properties.generalCategory == .format
    }
}

func check(_ error: ImportError, input: [UInt8]) {
    let text = error.description
    if let bad = text.unicodeScalars.first(where: isUnsafe) {
        fatalError("an error message carries U+\(String(bad.value, radix: 16)) from the input: \(text.debugDescription)")
    }
    let lines = input.reduce(1) { $0 + ($1 == 0x0A ? 1 : 0) }
    if let line = error.line, !(1 ... lines).contains(line) { fatalError("error on line \(line) of \(lines): \(text)") }
    if let column = error.column, column < 1 || column > input.count + 1 { fatalError("error at column \(column): \(text)") }
}

/// The first instant and the last that a time may have: years 0001 to 9999 in UTC.
let firstInstant = -62_135_596_800.0
let lastInstant = 253_402_300_800.0

func checkID(_ id: String, _ what: String) {
    if id.isEmpty || id.utf8.contains(0) { fatalError("\(what) \(id.debugDescription) is empty or holds NUL") }
}

func check(_ message: Message) {
    checkID(message.id, "message ID")
    checkID(message.authorID, "author ID of \(message.id)")
    for id in [message.replyToID, message.replyToUserID, message.repostOfID, message.quoteOfID].compactMap({ $0 }) {
        checkID(id, "linked ID of \(message.id)")
    }
    for time in [message.createdAt, message.editedAt].compactMap({ $0 }) {
        let seconds = time.timeIntervalSince1970
        if !(seconds >= firstInstant && seconds < lastInstant) { fatalError("message \(message.id) has a time outside years 1-9999: \(seconds)") }
    }
    if message.text.utf8.count > JSONLinesImporter.maximumTextBytes { fatalError("message \(message.id) has a text beyond the limit") }
    if message.likeCount < 0 || message.repostCount < 0 || message.replyCount < 0 { fatalError("message \(message.id) has a negative count") }
}

func check(_ user: User) {
    checkID(user.id, "user ID")
}

/// Reads `bytes` as a JSON Lines file: its records, or the `ImportError` that stopped it.
func readJSONLines(_ bytes: [UInt8]) -> Result<[JSONLinesRecord], ImportError> {
    guard ftruncate(scratch, 0) == 0, bytes.withUnsafeBytes({ pwrite(scratch, $0.baseAddress, $0.count, 0) }) == bytes.count,
          lseek(scratch, 0, SEEK_SET) == 0 else {
        fatalError("cannot write the scratch file: \(errno)")
    }
    let reader = JSONLinesReader(fileDescriptor: scratch, sourceName: "fuzz.jsonl")
    var records: [JSONLinesRecord] = []
    do throws(ImportError) {
        while let record = try reader.nextRecord() { records.append(record) }
        return .success(records)
    } catch {
        return .failure(error)
    }
}

/// What is decoded is what JSON Lines carries: exported as lines and read back, it gives the same
/// users and messages (the read flag, the visibility and the source written by the export
/// included: issue 35). JSON Lines export does not carry what a server said for the person's
/// rules (issue 34's moderation facts and the warning made of them): those are compared without.
func checkRoundTrip(users: [User], messages: [Message]) {
    let messages = messages.map { message in
        var carried = message
        carried.moderation = .none
        carried.warning = nil
        return carried
    }
    var text = ""
    for user in users { text += JSONLinesExporter.line(for: user) + "\n" }
    for message in messages { text += JSONLinesExporter.line(for: message) + "\n" }
    switch readJSONLines(Array(text.utf8)) {
    case let .failure(error):
        fatalError("the export of decoded records does not import: \(error)")
    case let .success(records):
        let expected = users.map(JSONLinesRecord.user) + messages.map { JSONLinesRecord.message($0, readState: .overwrite) }
        if records != expected { fatalError("the export of decoded records imports differently") }
    }
}

/// A name made from anything a server chose is a valid name and stays one; a valid name is kept.
/// (How a name is shown is `TerminalText.line`'s business, fuzzed by render-fuzz.)
func checkName(_ text: String) {
    let name = Account.normalizedName(text)
    if let problem = Account.nameProblem(name) { fatalError("the name made of \(text.debugDescription) is invalid: \(problem)") }
    if Account.normalizedName(name) != name { fatalError("normalising \(name.debugDescription) again changes it") }
    if Account.nameProblem(text) == nil, name != text { fatalError("the valid name \(text.debugDescription) was changed") }
    let bluesky = Account.defaultBlueskyName(handle: text)
    if bluesky.contains("@") || Account.nameProblem(bluesky) != nil { fatalError("a Bluesky default name \(bluesky.debugDescription) breaks the rules") }
}

// MARK: The entry points

/// libFuzzer's entry point.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    switch format {
    case .jsonl:
        switch readJSONLines(bytes) {
        case let .failure(error):
            check(error, input: bytes)
        case let .success(records):
            var users: [User] = []
            var messages: [Message] = []
            for record in records {
                switch record {
                case let .user(user): users.append(user)
                case let .message(message, _): messages.append(message)
                }
            }
            users.forEach(check)
            messages.forEach(check)
            checkRoundTrip(users: users, messages: messages)
        }
    case .names:
        checkName(String(decoding: bytes, as: UTF8.self))
    case .mastodon, .twitter, .bluesky, .mastodonServer, .blueskyServer:
        let decoded: DecodedTimeline
        do throws(ImportError) {
            switch format {
            case .mastodon: decoded = try MastodonDecoder().decode(bytes, sourceName: "fuzz.json")
            case .twitter: decoded = try TwitterDecoder().decode(bytes, sourceName: "fuzz.json")
            case .mastodonServer: decoded = try MastodonDecoder(overlongText: .cut).decode(bytes, sourceName: "fuzz.json")
            case .blueskyServer: decoded = try BlueskyDecoder(overlongText: .cut).decode(bytes, sourceName: "fuzz.json")
            default: decoded = try BlueskyDecoder().decode(bytes, sourceName: "fuzz.json")
            }
        } catch {
            check(error, input: bytes)
            // What a server sends is cut, never refused for its length.
            if format == .mastodonServer || format == .blueskyServer, case .textTooLong = error.problem {
                fatalError("a server's over-long text was refused, not cut: \(error)")
            }
            return 0
        }
        decoded.users.forEach(check)
        decoded.messages.forEach(check)
        let userIDs = Set(decoded.users.map(\.id))
        for message in decoded.messages where !userIDs.contains(message.authorID) {
            fatalError("message \(message.id) names author \(message.authorID), which the decoder did not give")
        }
        checkRoundTrip(users: decoded.users, messages: decoded.messages)
    }
    return 0
}

/// libFuzzer's driver: parses the command line and runs the fuzzing loop.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable with `main` aliased to `<module>_main`; with `-parse-as-library`
/// there is no top-level code, so this is the program's entry, and it hands over to libFuzzer.
@_cdecl("import_fuzz_main")
func importFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) }
}
