import Testing
@testable import timeline

/// `AgeLimit`, read byte by byte since the shell hook's `show` reads one at every start
/// (issue 28): the same durations as before, and the same refusals.
@Suite struct AgeLimitTests {
    @Test(arguments: [("5m", 300, "5 minutes"), ("1m", 60, "1 minute"), ("90m", 5_400, "90 minutes"), ("12h", 43_200, "12 hours"),
                      ("30d", 2_592_000, "30 days"), ("2w", 1_209_600, "2 weeks"), ("1y", 31_536_000, "1 year"), ("05m", 300, "5 minutes"),
                      ("999999999m", 59_999_999_940, "999,999,999 minutes")])
    func aNumberAndAUnitIsADuration(text: String, seconds: Int64, reads: String) throws {
        let limit = try #require(AgeLimit(text))
        #expect(limit.seconds == seconds)
        #expect(limit.text == reads)
    }

    @Test(arguments: ["", "m", "0m", "00h", "5", "5s", "90s", "5M", "-5m", "+5m", "5 m", " 5m", "5m ", "1234567890m", "５m", "5mm", "1.5h", "٥m"])
    func anythingElseIsRefused(text: String) {
        #expect(AgeLimit(text) == nil, "\(text)")
    }
}
