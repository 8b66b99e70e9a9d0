import Foundation
import Testing
@testable import TimelineKit

@Suite struct MessageTemplateTests {
    @Test func fieldsAreFilledAndBracesEscaped() throws {
        let page = TimelinePage(messages: [Samples.message(1, text: "hi\u{1b}[31m\nthere")], users: [Samples.alice])
        let template = try MessageTemplate("{{{id}}} {handle}/{name}: {text} [{read}]")
        #expect(template.text(for: page) == "{m1} alice/Alice Example: hi␛[31m there [false]\n")
    }

    @Test func badTemplatesAreRefusedSayingWhy() {
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("{nope}") }
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("{id") }
        #expect(throws: MessageTemplate.ParseError.self) { try MessageTemplate("id}") }
        do {
            _ = try MessageTemplate("{\u{1b}[2J}")
        } catch {
            #expect(!error.description.contains("\u{1b}") && error.description.contains("{text}"))
        }
        #expect((try? MessageTemplate("")) != nil)
    }
}
