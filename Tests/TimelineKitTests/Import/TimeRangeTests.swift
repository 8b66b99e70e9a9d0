import Foundation
import Testing
@testable import TimelineKit

/// Times are kept only in the years an export can write, 0001 to 9999 in UTC, so that every
/// export imports again (issue 12, item 8).
@Suite struct TimeRangeTests {
    typealias F = ImportFixtures

    @Test(arguments: [
        ("9999-12-31T23:59:59-01:00", "10000-01-01T00:59:59Z"),
        ("0000-01-01T00:00:00+23:59", "-0001-12-31T00:01:00Z"),
        ("0000-12-31T23:59:59.999Z", "0000-12-31T23:59:59.999Z"),
        ("0001-01-01T00:00:00+00:01", "0000-12-31T23:59:00Z"),
    ])
    func aTimeOutsideTheYearsAnExportWritesIsRefusedWithItsUTCTime(time: String, utc: String) throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        let path = try directory.write([F.alice, F.message("m1", createdAt: time)].joined(separator: "\n"))
        #expect {
            try JSONLinesImporter(store: store).importFile(atPath: path)
        } throws: { error in
            guard let error = error as? ImportError, error.line == 2, error.field == "created_at",
                  case let .invalidTime(value, reason) = error.problem else { return false }
            return value == time && reason.hasPrefix("is \(utc) in UTC, outside the years 0001 to 9999")
        }
        #expect(try store.state().messageCount == 0)
    }

    @Test func theFirstAndLastInstantsOfTheRangeRoundTripThroughExport() throws {
        let directory = TemporaryDirectory()
        let store = try directory.store()
        // The day before the first, in a zone west of UTC, is its first instant.
        let times = ["0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999Z", "0000-12-31T23:00:00-01:00", "9999-12-31T23:59:60Z"]
        let lines = [F.alice] + times.enumerated().map { F.message("m\($0.offset)", createdAt: $0.element) }
        try store.importText(lines.joined(separator: "\n"), in: directory)

        let exported = try F.export(store)
        let text = String(decoding: exported, as: UTF8.self)
        #expect(text.contains(#""created_at":"0001-01-01T00:00:00Z""#))
        #expect(text.contains(#""created_at":"9999-12-31T23:59:59.999Z""#))
        let copy = try directory.store("copy.sqlite")
        try JSONLinesImporter(store: copy).importFile(atPath: try directory.write(exported, to: "export.jsonl"))
        #expect(try F.export(copy) == exported)
    }

    @Test func mastodonAndTwitterTimesAreHeldToTheSameRange() throws {
        let status = #"[{"id":"1","created_at":"9999-12-31T23:59:59-01:00","content":"","account":{"id":"1","acct":"a"}}]"#
        #expect {
            try MastodonDecoder().decode(Array(status.utf8))
        } throws: { error in
            (error as? ImportError)?.field == "[0].created_at" && "\(error)".contains("10000-01-01T00:59:59Z in UTC")
        }
        func tweet(_ time: String) -> [UInt8] {
            Array(#"[{"id_str":"1","created_at":"\#(time)","text":"x","user":{"id_str":"5","screen_name":"f"}}]"#.utf8)
        }
        #expect(throws: ImportError.self) { try TwitterDecoder().decode(tweet("Sat Jan 01 00:30:00 +0100 0001")) }
        #expect(try TwitterDecoder().decode(tweet("Mon Jan 01 00:30:00 +0000 0001")).messages.count == 1)
        // Signs are not digits: an hour of -1 or an offset of "+-100" is no Twitter time.
        #expect(throws: ImportError.self) { try TwitterDecoder().decode(tweet("Wed Oct 10 -1:19:24 +0000 2018")) }
        #expect(throws: ImportError.self) { try TwitterDecoder().decode(tweet("Wed Oct 10 20:19:24 +-100 2018")) }
        #expect(throws: ImportError.self) { try TwitterDecoder().decode(tweet("Wed Oct +1 20:19:24 +0000 2018")) }
    }

    @Test func theLibraryRefusesToStoreATimeAnExportCouldNotWrite() throws {
        let directory = TemporaryDirectory()
        let store = try Samples.store(in: directory)
        let tooLate = Message(id: "late", authorID: "u1", text: "", createdAt: Date(timeIntervalSince1970: 253_402_300_800))
        #expect {
            try store.upsert(messages: [tooLate])
        } throws: { error in
            guard case let .invalidValue(field, reason) = error as? TimelineStoreError else { return false }
            return field == #"created_at of message "late""# && reason.contains("10000-01-01T00:00:00Z in UTC")
        }
        let first = Date(timeIntervalSince1970: -62_135_596_800)  // 0001-01-01T00:00:00Z
        var edited = Samples.message(1)
        edited.editedAt = first.addingTimeInterval(-0.001)
        #expect(throws: TimelineStoreError.self) { try store.upsert(messages: [edited]) }
        edited.editedAt = first
        try store.upsert(messages: [edited])
        // Foundation's distantPast is 0000-12-30 in the proleptic Gregorian calendar: refused.
        edited.editedAt = .distantPast
        #expect(throws: TimelineStoreError.self) { try store.upsert(messages: [edited]) }
    }
}
