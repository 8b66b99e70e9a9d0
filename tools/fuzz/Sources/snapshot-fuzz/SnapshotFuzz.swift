import TimelineKit

#if canImport(Glibc)
import Glibc
#endif

/// What each input is: a whole snapshot file (the default), or with `SNAPSHOT_FUZZ_MODE=payload`
/// a snapshot's payload, the bytes that the file's checksums guard. Mutations of a whole file
/// almost never get past its CRC-32 and LZ4 checksums, so the payload mode is what reaches the
/// binary decoder behind them.
let payloadMode = getenv("SNAPSHOT_FUZZ_MODE").map { String(cString: $0) } == "payload"
/// Values no writer produces are findings too, now that the reader refuses them (see
/// findings/README.md); SNAPSHOT_FUZZ_STRICT=0 turns that off.
let strict = getenv("SNAPSHOT_FUZZ_STRICT").map { String(cString: $0) != "0" } ?? true

/// What no snapshot written by TimelineKit can hold: a time that is not finite, a negative count.
func impossibleValue(in snapshot: TimelineSnapshot) -> String? {
    let state = snapshot.state
    if state.messageCount < 0 || state.unreadCount < 0 || state.userCount < 0 { return "a negative count: \(state)" }
    if !snapshot.builtAt.timeIntervalSinceReferenceDate.isFinite { return "builtAt is not finite" }
    let messages = snapshot.window.messages + snapshot.window.related
    for message in messages where !message.createdAt.timeIntervalSinceReferenceDate.isFinite
        || !(message.editedAt?.timeIntervalSinceReferenceDate.isFinite ?? true) {
        return "message \(message.id) has a time that is not finite"
    }
    return nil
}

/// The input as the file reader takes it, or `nil` when it is refused: a whole file decoded as
/// `timeline show` decodes it; a payload decoded, then read back as a file with valid checksums,
/// which is what a file crafted to pass them gets (the reader checks the values behind them).
func accepted(_ bytes: [UInt8]) -> TimelineSnapshot? {
    guard payloadMode else { return try? SnapshotFile.decode(bytes) }
    guard let decoded = try? BinaryDecoder().decode(TimelineSnapshot.self, from: bytes) else { return nil }
    return try? SnapshotFile.decode(encoded(decoded))
}

/// The file bytes of a snapshot; a decoded snapshot that cannot be written is a finding.
func encoded(_ snapshot: TimelineSnapshot) -> [UInt8] {
    do {
        return try SnapshotFile.encode(snapshot)
    } catch {
        fatalError("a decoded snapshot does not encode: \(error)")
    }
}

/// libFuzzer's entry point. The reader must refuse each input with an error or decode it; it must
/// never crash, hang, read out of bounds (the build runs under AddressSanitizer) or allocate what
/// a declared size asks for before checking it (`tools/fuzz/run` sets a malloc limit).
///
/// Only the decode under test may refuse: the checks on what it accepted are outside any
/// `do`/`catch`, so a failing check traps (a finding) instead of counting as a refused input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    // Refused: what a damaged or hostile input must get, by the preview too.
    guard let snapshot = accepted(bytes) else {
        if !payloadMode { checkPreview(of: bytes, agreesWith: nil) }
        return 0
    }
    // To look at a finding: SNAPSHOT_FUZZ_WRITE=FILE writes what was decoded as a snapshot file.
    if let path = getenv("SNAPSHOT_FUZZ_WRITE") {
        do {
            try SnapshotFile(path: String(cString: path)).write(snapshot)
        } catch {
            fatalError("cannot write \(String(cString: path)): \(error)")
        }
    }
    // Whatever decodes is a real snapshot: it encodes again, and that reads back to the same
    // bytes (bytes, not values: a NaN date is never equal to itself).
    let file = encoded(snapshot)
    guard let again = try? SnapshotFile.decode(file) else { fatalError("an accepted snapshot is refused once written again") }
    guard encoded(again) == file else { fatalError("a decoded snapshot does not round-trip") }
    checkPreview(of: file, agreesWith: again)
    if !payloadMode { checkPreview(of: bytes, agreesWith: snapshot) }
    if strict, let problem = impossibleValue(in: snapshot) { fatalError("decoded an impossible snapshot: \(problem)") }
    return 0
}

/// `timeline show`'s path (a preview of the head, decompressed and read only as far as it needs,
/// then completed) must agree with the whole read: a file the whole read takes gives the same
/// head and the same snapshot; a file it refuses is refused by the preview or by its completion.
func checkPreview(of file: [UInt8], agreesWith whole: TimelineSnapshot?) {
    for count in [0, 3, 1_000] {
        let preview = try? SnapshotFile.decodePreview(file, messages: count)
        let completed = try? preview?.complete()
        guard let whole else {
            if completed != nil { fatalError("the preview completes a snapshot the whole read refuses") }
            continue
        }
        guard let preview, let completed else { fatalError("the preview refuses a snapshot the whole read takes") }
        guard encoded(completed) == encoded(whole) else { fatalError("the completed preview is another snapshot") }
        guard preview.head.messages.map(\.id) == whole.window.messages.prefix(count).map(\.id) else {
            fatalError("the preview's head is not the window's first messages")
        }
    }
}

/// libFuzzer's driver: parses the command line and runs the fuzzing loop.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// SwiftPM links an executable with `main` aliased to `<module>_main`; with `-parse-as-library`
/// there is no top-level code, so this is the program's entry, and it hands over to libFuzzer.
@_cdecl("snapshot_fuzz_main")
func snapshotFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv) { data, size in fuzz(data, size) }
}
