#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import FuzzSupport
import TimelineKit

/// Inputs shorter than this are also measured, neutralised and wrapped repeated up to it: a stage
/// that takes quadratic time in some run of characters then takes many seconds on the repetition
/// (the flag runs of issue 12 took 30 s at this size), which is a finding (see
/// `slowestAllowed`), where the short input alone would pass unnoticed. Linear stages take
/// milliseconds.
let repeatedBytes = 65_536
/// A page is rendered to fit rows from a repetition up to this size: its cost must not grow with
/// the text at all.
let repeatedPageBytes = 16_384

let now = Date(timeIntervalSince1970: 1_795_348_800)

func fail(_ problem: String, _ text: String) -> Never {
    fatalError("\(problem), for \(text.debugDescription)")
}

/// Whether `text` holds something that acts on a terminal: C0 and C1 controls (line feeds aside,
/// where allowed), DEL, and bidirectional embeddings, overrides and isolates.
func isHarmful(_ text: String, allowingLineFeeds: Bool) -> Bool {
    text.unicodeScalars.contains { scalar in
        let value = scalar.value
        return (value < 0x20 && !(allowingLineFeeds && value == 0x0A)) || (0x7F...0x9F).contains(value)
            || (0x202A...0x202E).contains(value) || (0x2066...0x2069).contains(value)
    }
}

/// Neutralising, measuring, wrapping and truncating `text` at `width` columns keep their promises.
func checkText(_ text: String, width: Int) {
    let body = TerminalText.body(text)
    let line = TerminalText.line(text)
    if isHarmful(body, allowingLineFeeds: true) { fail("neutralised message text still acts on a terminal", text) }
    if isHarmful(line, allowingLineFeeds: false) { fail("a neutralised field still acts on a terminal", text) }
    if TerminalText.body(body) != body { fail("neutralising message text twice changed it", text) }
    if TerminalText.line(line) != line { fail("neutralising a field twice changed it", text) }

    let lines = TextWrapper(width: width).wrap(body)
    for wrapped in lines where DisplayWidth.of(wrapped) > width {
        // Only a cluster wider than the whole line may stand alone over it.
        if wrapped.filter({ DisplayWidth.of(character: $0) > 0 }).count != 1 {
            fail("the wrapped line \(wrapped.debugDescription) is wider than \(width) columns", text)
        }
    }
    // Wrapping drops spaces at breaks and turns line feeds into lines: nothing else is lost.
    let kept = { (text: String) in text.unicodeScalars.filter { $0 != " " && $0 != "\n" }.map(\.value) }
    if kept(lines.joined()) != kept(body) { fail("wrapping at \(width) lost or changed text", text) }

    let truncated = TextWrapper.truncate(line, toWidth: width)
    if DisplayWidth.of(truncated) > width { fail("truncating to \(width) columns gave \(truncated.debugDescription)", text) }
}

/// A page where `text` is a name, a handle, a text, a content warning and a quote, rendered to fit
/// `rows` (and whole, unless `fittedOnly`): no line is wider than the layout, none holds an
/// escape with colour off.
func checkPage(_ text: String, width: Int, rows: Int, fittedOnly: Bool = false) {
    let page = TimelinePage(
        messages: [
            Message(id: "m1", authorID: "u1", text: text, createdAt: now, editedAt: now, replyToID: "m2", isRead: false),
            Message(id: "m3", authorID: "u1", text: "quoting", createdAt: now, quoteOfID: "m2", likeCount: 1_234),
            Message(id: "m4", authorID: "u1", text: text, createdAt: now, contentWarning: text),
            Message(id: "m5", authorID: "u1", text: "", createdAt: now, repostOfID: "m2"),
        ],
        related: [Message(id: "m2", authorID: "u1", text: text, createdAt: now, contentWarning: text.count % 2 == 0 ? nil : text)],
        users: [User(id: "u1", handle: text, name: text, isBot: true)])
    let renderer = TimelineRenderer(options: RenderOptions(width: width, revealsContentWarnings: rows % 2 == 0))
    let layoutWidth = max(width, RenderOptions.minimumWidth)
    let whole = fittedOnly ? [] : renderer.render(page, now: now)
    let fitted = renderer.render(page, now: now, fittingRows: rows)
    for entry in whole + fitted {
        for line in entry.lines {
            if TimelineRenderer.displayWidth(ofLine: line) > layoutWidth { fail("the rendered line \(line.debugDescription) is wider than \(layoutWidth)", text) }
            if isHarmful(line, allowingLineFeeds: false) { fail("the rendered line \(line.debugDescription) acts on a terminal", text) }
        }
    }
    if let first = fitted.first, first.lines.count > max(rows, TimelineRenderer.shortestCut) {
        fail("the first entry fitted to \(rows) rows has \(first.lines.count) lines", text)
    }
    if fitted.count > 1 && TimelineRenderer.rowCount(of: fitted) > rows {
        fail("the entries fitted to \(rows) rows take \(TimelineRenderer.rowCount(of: fitted))", text)
    }
}

/// libFuzzer's entry point: the first byte picks the width (1-128 columns), the second the rows
/// (0-63); the rest, as UTF-8 (invalid sequences become U+FFFD, as in any `String` a decoder
/// makes), goes through every stage of rendering, which must never crash, read out of bounds
/// (the build runs under AddressSanitizer), break a promise (each check stops the run with what
/// it found) or take more than linear time.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard size >= 2, let data else { return 0 }
    let width = Int(data[0] & 0x7F) + 1
    let rows = Int(data[1] & 0x3F)
    let text = String(decoding: UnsafeBufferPointer(start: data + 2, count: size - 2), as: UTF8.self)
    timed(text) {
        checkText(text, width: width)
        checkPage(text, width: width, rows: rows)
        guard !text.isEmpty && text.utf8.count < repeatedBytes else { return }
        // After a word: a run that starts inside the text, not at its start, is what made
        // `Substring` look back through it (a run at the very start was spared).
        let repeated = "x " + String(repeating: text, count: repeatedBytes / text.utf8.count + 1)
        _ = DisplayWidth.of(repeated)
        _ = TextWrapper(width: width).wrap(TerminalText.body(repeated))
        _ = TextWrapper.truncate(TerminalText.line(repeated), toWidth: width)
        // Rendered whole, a page costs what its text's length does, each stage of which is timed
        // above; fitted to rows, it must cost what the rows can show.
        checkPage("x " + String(repeating: text, count: repeatedPageBytes / text.utf8.count + 1), width: width, rows: rows, fittedOnly: true)
    }
    return 0
}

/// The program's entry (see `runLibFuzzer`).
@_cdecl("render_fuzz_main")
func renderFuzzMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runLibFuzzer(argc, argv) { data, size in fuzz(data, size) }
}
