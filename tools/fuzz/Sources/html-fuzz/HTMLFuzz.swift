import FuzzSupport
import TimelineKit

/// Inputs shorter than this are also converted repeated up to it: a conversion that takes
/// quadratic time in some pattern then takes seconds on the repetition, which is a finding (see
/// `slowestAllowed`), where the short input alone would pass unnoticed. `<a` repeated to this
/// size took 20 s before issue 12; linear conversion takes milliseconds.
let repeatedBytes = 65_536

/// What must hold for the text of any HTML: it is never longer than the markup (in scalars), since
/// tags, comments and references only ever shrink to what they stand for.
func check(_ html: String) {
    let text = MastodonHTML.plainText(html)
    let decoded = HTMLEntities.decode(html)
    if text.unicodeScalars.count > html.unicodeScalars.count {
        fatalError("the text of \(html.debugDescription) is longer than its HTML: \(text.debugDescription)")
    }
    if decoded.unicodeScalars.count > html.unicodeScalars.count {
        fatalError("decoding the references of \(html.debugDescription) made it longer: \(decoded.debugDescription)")
    }
}

/// libFuzzer's entry point: arbitrary bytes as UTF-8 (invalid sequences become U+FFFD, as in any
/// `String` a decoder makes) through `MastodonHTML.plainText` and `HTMLEntities.decode`, which
/// must never crash, read out of bounds (the build runs under AddressSanitizer) or take more
/// than linear time.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let html = String(decoding: bytes, as: UTF8.self)
    timed(html) {
        check(html)
        if !html.isEmpty && bytes.count < repeatedBytes {
            check(String(repeating: html, count: repeatedBytes / bytes.count + 1))
        }
    }
    return 0
}

/// The program's entry (see `runLibFuzzer`).
@_cdecl("html_fuzz_main")
func htmlFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
