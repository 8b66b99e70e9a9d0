import Foundation
import Testing
import TimelineKit

/// Issue 6, point 6: every control character and escape sequence, bidirectional override and
/// zero-width trick, in message text, display names, handles and content warnings, goes through
/// `timeline import` and `timeline show`, and the exact bytes written are checked.
///
/// Each hostile case is imported into one timeline; a twin timeline gets the same messages with
/// the stand-ins that `TerminalText` documents written out literally (`␛` for ESC, `�` for a C1
/// control, nothing for a bidi override…). Both must show byte for byte the same output, so
/// nothing but the documented stand-in reaches the terminal, and a few lines are also checked
/// against bytes written out by hand.
@Suite struct ReliabilityInjectionTests {
    struct Case {
        let label: String
        let input: String
        /// What message text shows, and what a one-line field (name, handle, warning) shows.
        let inText: String
        let inLine: String
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        func add(_ label: String, _ input: String, _ inText: String, _ inLine: String? = nil) {
            cases.append(Case(label: label, input: input, inText: inText, inLine: inLine ?? inText))
        }
        // C0 controls: their control pictures (U+2400 + value). Tab and line feed lay text out:
        // a tab runs to the next multiple of 4 columns in text ("T000" is 4 columns, so 4 spaces)
        // and is a space in a one-line field, as is a line feed.
        for value in UInt32(0)..<0x20 {
            let control = String(Unicode.Scalar(value)!)
            switch value {
            case 0x09: add("TAB", control, "    ", " ")
            case 0x0A: add("LF", control, "\n", " ")
            case 0x0D: add("CR", control, "\u{240D}")
            default: add(String(format: "C0 %02X", value), control, String(Unicode.Scalar(0x2400 + value)!))
            }
        }
        add("CRLF", "\r\n", "\n", " ")
        add("DEL", "\u{7F}", "\u{2421}")
        // C1 controls, the 8-bit CSI U+009B among them: the replacement character.
        for value in UInt32(0x80)...0x9F {
            add(String(format: "C1 %02X", value), String(Unicode.Scalar(value)!), "\u{FFFD}")
        }
        // Escape sequences: shown, inert.
        add("CSI colour", "\u{1B}[31mRED\u{1B}[0m", "␛[31mRED␛[0m")
        add("CSI clear and home", "\u{1B}[2J\u{1B}[H", "␛[2J␛[H")
        add("CSI cursor up and erase", "\u{1B}[5A\u{1B}[K", "␛[5A␛[K")
        add("OSC title (BEL)", "\u{1B}]0;pwned\u{07}", "␛]0;pwned␇")
        add("OSC title (ST)", "\u{1B}]2;pwned\u{1B}\\", "␛]2;pwned␛\\")
        add("OSC 8 hyperlink", "\u{1B}]8;;https://evil.example/\u{1B}\\click\u{1B}]8;;\u{1B}\\", "␛]8;;https://evil.example/␛\\click␛]8;;␛\\")
        add("OSC 52 clipboard", "\u{1B}]52;c;cm0gLXJmIH4=\u{07}", "␛]52;c;cm0gLXJmIH4=␇")
        add("DCS", "\u{1B}P1$r0m\u{1B}\\", "␛P1$r0m␛\\")
        add("APC", "\u{1B}_payload\u{1B}\\", "␛_payload␛\\")
        add("8-bit CSI", "\u{9B}31mX\u{9B}0m", "\u{FFFD}31mX\u{FFFD}0m")
        add("8-bit OSC", "\u{9D}0;t\u{9C}", "\u{FFFD}0;t\u{FFFD}")
        // Bidirectional embeddings, overrides and isolates: removed.
        for value: UInt32 in [0x202A, 0x202B, 0x202C, 0x202D, 0x202E, 0x2066, 0x2067, 0x2068, 0x2069] {
            add(String(format: "bidi %04X", value), "x" + String(Unicode.Scalar(value)!) + "y", "xy")
        }
        add("RLO filename", "invoice_\u{202E}gpj.exe", "invoice_gpj.exe")
        // Directional marks: kept in text, removed from one-line fields.
        add("LRM", "a\u{200E}b", "a\u{200E}b", "ab")
        add("RLM", "a\u{200F}b", "a\u{200F}b", "ab")
        add("ALM", "a\u{061C}b", "a\u{061C}b", "ab")
        // Zero-width and invisible format characters: removed (ZWNJ stays in text, where
        // Persian and Indic scripts need it; ZWJ after ASCII joins no emoji and goes).
        add("ZWSP", "pay\u{200B}pal", "paypal")
        add("ZWNJ", "pay\u{200C}pal", "pay\u{200C}pal", "paypal")
        add("ZWJ after ASCII", "pay\u{200D}pal", "paypal")
        add("word joiner", "pay\u{2060}pal", "paypal")
        add("BOM", "pay\u{FEFF}pal", "paypal")
        add("soft hyphen", "pay\u{AD}pal", "paypal")
        add("interlinear annotation", "a\u{FFF9}b\u{FFFA}c\u{FFFB}d", "abcd")
        add("invisible tags", "hidden\u{E0041}\u{E0042}text", "hiddentext")
        add("line separator", "one\u{2028}two", "one\ntwo", "one two")
        add("paragraph separator", "one\u{2029}two", "one\ntwo", "one two")
        add("everything at once", "\u{1B}[31m\u{202E}\u{200B}\u{07}\u{9B}\r", "␛[31m␇\u{FFFD}\u{240D}")
        return cases
    }()

    /// The import file for one side: per case, a user whose name and handle carry the case, a
    /// message whose text carries it, and a reply to that user behind a content warning that
    /// carries it too. `substitute` says what goes where the case goes.
    static func lines(substitute: (Case, _ inText: Bool) -> String) -> [String] {
        var lines: [String] = []
        for (index, item) in cases.enumerated() {
            let n = String(format: "%03d", index)
            let line = substitute(item, false)
            lines.append(ImportLine.user(id: "u\(n)", handle: "h\(n)\(line)k", name: "N\(n)\(line)M"))
            // Fixed times long past: the age shows as a date, the same on every run.
            let time = 1_600_000_000_000 + Int64(index) * 120_000
            lines.append(ImportLine.message(id: "m\(n)", author: "u\(n)", text: "T\(n)\(substitute(item, true))E", createdAt: time))
            lines.append(ImportLine.message(
                id: "r\(n)", author: "u\(n)", text: "x", createdAt: time + 60_000,
                extra: #","reply_to":"m\#(n)","reply_to_user":"u\#(n)","content_warning":\#(ImportLine.json("C\(n)\(line)W"))"#))
        }
        return lines
    }

    /// `show` of every message of a timeline, on a pipe and on a pseudo-terminal.
    struct Shown {
        let pipe: String
        let terminal: String
        let terminalInColour: String
    }

    static func show(_ lines: [String]) throws -> Shown {
        let scenario = Scenario()
        let path = scenario.directory + "/input.jsonl"
        try ImportLine.write(lines, to: path)
        let imported = try scenario.timeline.run(["import", path])
        guard imported.status == 0 else { throw ShellFailure(description: "import failed: \(imported.errors)") }
        // A snapshot that holds them all, so the terminal is painted from it.
        guard try scenario.timeline.run(["snapshot", "--limit", "1000"]).status == 0 else { throw ShellFailure(description: "snapshot failed") }
        let arguments = ["show", "-n", "\(cases.count * 2)", "--width", "400"]
        let pipe = try scenario.timeline.run(arguments + ["--color", "never"])
        let terminal = try scenario.timeline.runInTerminal(arguments + ["--color", "never"], columns: 400, rows: 1000)
        let colour = try scenario.timeline.runInTerminal(arguments, columns: 400, rows: 1000)
        for run in [pipe, terminal, colour] where run.status != 0 || !run.errors.isEmpty {
            throw ShellFailure(description: "show failed: \(run.status) \(run.errors)")
        }
        return Shown(pipe: pipe.output, terminal: terminal.output, terminalInColour: colour.output)
    }

    @Test func everyHostileCharacterReachesTheTerminalOnlyAsItsDocumentedStandIn() throws {
        let hostile = try Self.show(Self.lines { item, _ in item.input })
        let twin = try Self.show(Self.lines { item, inText in inText ? item.inText : item.inLine })

        // Byte for byte what the documented stand-ins give, on a pipe and on a terminal, with
        // and without colour.
        #expect(Array(hostile.pipe.utf8) == Array(twin.pipe.utf8))
        #expect(Array(hostile.terminal.utf8) == Array(twin.terminal.utf8))
        #expect(Array(hostile.terminalInColour.utf8) == Array(twin.terminalInColour.utf8))
        #expect(hostile.terminal == hostile.pipe)
        if hostile.pipe != twin.pipe {
            // Name the cases that differ, so a failure says which character got through.
            let shown = Self.entries(hostile.pipe), expected = Self.entries(twin.pipe)
            for (index, item) in Self.cases.enumerated() {
                let n = String(format: "%03d", index)
                if shown[n] != expected[n] { Issue.record("\(item.label): shown \(Self.visible(shown[n])), expected \(Self.visible(expected[n]))") }
            }
        }

        // Without colour, the only control byte is the line feed; nothing from U+0080–U+009F,
        // no bidi control. With colour, the only escapes are the renderer's SGR sequences.
        for output in [hostile.pipe, hostile.terminal] {
            #expect(!output.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
            #expect(!output.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
            #expect(!output.unicodeScalars.contains { [0x200B, 0x2060, 0xFEFF, 0xAD].contains($0.value) })
        }
        let withoutSGR = hostile.terminalInColour.replacingOccurrences(of: "\u{1B}\\[[0-9;]*m", with: "", options: .regularExpression)
        #expect(!withoutSGR.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || (0x7F...0x9F).contains($0.value) })
        #expect(withoutSGR == hostile.pipe)

        // A few entries written out by hand, so the comparison above cannot pass vacuously.
        // (Without the short references, which depend on the order of storing.)
        let entries = Self.entries(hostile.pipe).mapValues {
            $0.replacingOccurrences(of: "(?m) · [bcdfghjklmnpqrstvwxz]{3,12}$", with: "", options: .regularExpression)
        }
        let csi = String(format: "%03d", try #require(Self.cases.firstIndex { $0.label == "CSI colour" }))
        #expect(entries[csi] == "● N\(csi)␛[31mRED␛[0mM @h\(csi)␛[31mRED␛[0mk · 2020-09-13\n  T\(csi)␛[31mRED␛[0mE\n")
        let osc = String(format: "%03d", try #require(Self.cases.firstIndex { $0.label == "OSC 8 hyperlink" }))
        #expect(entries[osc]?.contains("  T\(osc)␛]8;;https://evil.example/␛\\click␛]8;;␛\\E\n") == true)
        let rlo = String(format: "%03d", try #require(Self.cases.firstIndex { $0.label == "RLO filename" }))
        #expect(entries[rlo]?.contains("● N\(rlo)invoice_gpj.exeM @h\(rlo)invoice_gpj.exek") == true)
        let cr = String(format: "%03d", try #require(Self.cases.firstIndex { $0.label == "CR" }))
        #expect(entries[cr]?.contains("  T\(cr)␍E\n") == true)
    }

    /// The shown entries of the messages `mNNN`, by NNN (an entry runs to the blank line).
    static func entries(_ output: String) -> [String: String] {
        var result: [String: String] = [:]
        for block in output.components(separatedBy: "\n\n") {
            let entry = block.hasSuffix("\n") ? block : block + "\n"
            guard let range = entry.range(of: #"\n  T[0-9]{3}"#, options: .regularExpression) else { continue }
            result[String(entry[range].suffix(3))] = entry
        }
        return result
    }

    static func visible(_ text: String?) -> String {
        guard let text else { return "nothing" }
        return text.unicodeScalars.map { $0.isASCII && $0.value >= 0x20 ? String($0) : String(format: "\\u{%X}", $0.value) }.joined()
    }
}
