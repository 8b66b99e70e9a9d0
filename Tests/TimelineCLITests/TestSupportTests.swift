import Foundation
import Testing

/// The test support's own guarantees, where a failure would take other tests down with it.
struct TestSupportTests {
    /// `timeline` refusing its arguments ends before it reads a megabyte given on its standard
    /// input: the test gets the exit status, and the test process (every test in it) lives on.
    /// Before `PipeInput`, the write's SIGPIPE ended the whole run.
    @Test func aChildThatEndsBeforeReadingItsInputLeavesTheTestProcessRunning() throws {
        let scenario = Scenario()
        let input = Data(repeating: UInt8(ascii: "x"), count: 1 << 20)
        let refused = try scenario.timeline.run(["--no-such-flag"], input: input)
        #expect(refused.status == 64, "\(refused.errors)")
        #expect(refused.errors.contains("no-such-flag"), "\(refused.errors)")
    }
}
