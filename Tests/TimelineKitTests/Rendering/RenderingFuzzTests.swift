import Testing
@testable import TimelineKit

/// Random text from a pool of troublesome scalars through every stage of rendering.
@Suite struct RenderingFuzzTests {
    static let pool: [ClosedRange<UInt32>] = [
        0x20...0x7E, 0x20...0x20, 0x20...0x20, 0x0A...0x0A, 0x09...0x0D, 0x00...0x1F, 0x7F...0x9F,
        0x300...0x36F, 0x4E00...0x4E20, 0xAC00...0xAC10, 0x1100...0x1112, 0x1161...0x1175, 0x11A8...0x11C2,
        0x3041...0x3096, 0x3001...0x300F, 0xFF61...0xFF9F, 0xFF01...0xFF5E, 0x1F600...0x1F64F, 0x1F3FB...0x1F3FF,
        0x1F1E6...0x1F1FF, 0x200B...0x200F, 0x202A...0x202E, 0x2066...0x2069, 0x2028...0x2029, 0xFE0F...0xFE0F,
        0x200D...0x200D, 0x2764...0x2764, 0x1F3F4...0x1F3F4, 0xE0020...0xE007F, 0x0E01...0x0E4E, 0x0900...0x097F,
        0x0600...0x06FF, 0x05D0...0x05EA, 0xE000...0xE010, 0x0378...0x0378, 0x3000...0x3000, 0xA0...0xAD,
        0xFFF9...0xFFFB, 0xFEFF...0xFEFF, 0x20E3...0x20E3, 0x30...0x39,
    ]

    static func randomText(_ generator: inout SplitMix64, length: Int) -> String {
        var text = ""
        for _ in 0..<Int.random(in: 0...length, using: &generator) {
            let range = pool.randomElement(using: &generator)!
            if let scalar = Unicode.Scalar(UInt32.random(in: range, using: &generator)) {
                text.unicodeScalars.append(scalar)
            }
        }
        return text
    }

    @Test func neutralisedRandomTextIsInertAndNeutralisingTwiceChangesNothing() {
        var generator = SplitMix64(seed: 1)
        for _ in 0..<2_000 {
            let text = Self.randomText(&generator, length: 40)
            let body = TerminalText.body(text)
            let line = TerminalText.line(text)
            for paragraph in body.split(separator: "\n", omittingEmptySubsequences: false) {
                RenderingSamples.expectInert(String(paragraph))
            }
            RenderingSamples.expectInert(line)
            #expect(TerminalText.body(body) == body, "\(text.debugDescription)")
            #expect(TerminalText.line(line) == line, "\(text.debugDescription)")
        }
    }

    @Test func wrappedRandomTextFitsAndGivesBackTheText() {
        var generator = SplitMix64(seed: 2)
        for _ in 0..<1_000 {
            let text = TerminalText.body(Self.randomText(&generator, length: 120))
            let width = Int.random(in: 1...50, using: &generator)
            var reconstructed = ""
            for line in TextWrapper(width: width).wrappedLines(text) {
                #expect(line.width == DisplayWidth.of(line.text), "\(line.text.debugDescription) in \(text.debugDescription) at \(width)")
                // A cluster wider than the line stands alone (zero-width ones may join it).
                let visible = line.text.filter { DisplayWidth.of(character: $0) > 0 }.count
                #expect(line.width <= width || visible == 1, "\(line.text.debugDescription) at \(width)")
                reconstructed += line.text + line.removed + (line.endsParagraph ? "\n" : "")
            }
            #expect(reconstructed == text, "\(text.debugDescription) at \(width)")
        }
    }

    @Test func randomMessagesAndUsersNeverBreakTheLayout() {
        var generator = SplitMix64(seed: 3)
        for round in 0..<60 {
            var users: [User] = []
            var messages: [Message] = []
            for index in 0..<8 {
                users.append(User(
                    id: "u\(index)",
                    handle: Self.randomText(&generator, length: 30),
                    name: Self.randomText(&generator, length: 40),
                    isBot: Bool.random(using: &generator)
                ))
            }
            for index in 0..<12 {
                messages.append(RenderingSamples.message(
                    "m\(index)",
                    by: "u\(Int.random(in: 0...8, using: &generator))",
                    Self.randomText(&generator, length: 200),
                    age: Double.random(in: -100...100_000_000, using: &generator),
                    read: Bool.random(using: &generator),
                    edited: Bool.random(using: &generator),
                    replyTo: Bool.random(using: &generator) ? ("m\(index + 1)", nil) : nil,
                    repostOf: index % 4 == 1 ? "m\(index + 1)" : nil,
                    quoteOf: index % 5 == 2 ? "m0" : nil,
                    contentWarning: index % 3 == 0 ? Self.randomText(&generator, length: 60) : nil,
                    attachments: index % 2 == 0 ? [(kind: "image", description: nil)] : [],
                    counts: (Int.random(in: 0...Int.max, using: &generator), Int.random(in: 0...2_000, using: &generator), 0)
                ))
            }
            let page = TimelinePage(messages: messages, users: users)
            let width = 20 + round
            for color in [false, true] {
                let options = RenderOptions(width: width, color: color, revealsContentWarnings: round % 2 == 0)
                for entry in TimelineRenderer(options: options).render(page, now: RenderingSamples.now) {
                    for line in entry.lines {
                        #expect(TimelineRenderer.displayWidth(ofLine: line) <= width, "\(line.debugDescription)")
                        RenderingSamples.expectInert(line, allowingSGR: color)
                    }
                }
            }
        }
    }
}
