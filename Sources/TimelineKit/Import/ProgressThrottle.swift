#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets progress through at most every 100 ms, looking at the clock only every 64 lines or
/// megabyte so that the check costs nothing measurable.
struct ProgressThrottle {
    private var lastReport = ProgressThrottle.now()
    private var linesAtCheck = 0
    private var bytesAtCheck = 0

    mutating func isDue(lines: Int, bytes: Int) -> Bool {
        guard lines - linesAtCheck >= 64 || bytes - bytesAtCheck >= 1 << 20 else { return false }
        linesAtCheck = lines
        bytesAtCheck = bytes
        let now = Self.now()
        guard now - lastReport >= 100_000_000 else { return false }
        lastReport = now
        return true
    }

    /// Monotonic nanoseconds.
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
