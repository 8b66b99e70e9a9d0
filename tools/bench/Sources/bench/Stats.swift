import Foundation

/// A set of timings (or any figures) and their order statistics.
struct Summary: Sendable {
    var values: [Double]

    init(_ values: [Double]) { self.values = values.sorted() }

    var median: Double {
        guard !values.isEmpty else { return .nan }
        let n = values.count
        return n % 2 == 1 ? values[n / 2] : (values[n / 2 - 1] + values[n / 2]) / 2
    }
    var min: Double { values.first ?? .nan }
    var max: Double { values.last ?? .nan }
    var count: Int { values.count }

    var json: [String: Any] { ["median": median, "min": min, "max": max, "n": count] }
}

/// Nanoseconds of CLOCK_MONOTONIC.
@inline(__always) func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Times `body` `iterations` times (after `warmup` untimed calls), one sample per call, in ms.
func timeInProcess(iterations: Int, warmup: Int = 3, _ body: () throws -> Void) rethrows -> Summary {
    for _ in 0..<warmup { try body() }
    var samples: [Double] = []
    samples.reserveCapacity(iterations)
    for _ in 0..<iterations {
        let start = now()
        try body()
        samples.append(Double(now() - start) / 1e6)
    }
    return Summary(samples)
}

func fmtMs(_ ms: Double) -> String {
    if ms.isNaN { return "-" }
    if ms >= 1000 { return String(format: "%.2f s", ms / 1000) }
    if ms >= 100 { return String(format: "%.0f ms", ms) }
    if ms >= 10 { return String(format: "%.1f ms", ms) }
    if ms >= 0.1 { return String(format: "%.2f ms", ms) }
    return String(format: "%.1f µs", ms * 1000)
}

func fmtRatio(_ r: Double) -> String { r.isNaN ? "-" : String(format: "%.2fx", r) }

func fmtCount(_ n: Double) -> String {
    if n >= 1e6 { return String(format: "%.2f M", n / 1e6) }
    if n >= 1e3 { return String(format: "%.1f k", n / 1e3) }
    return String(format: "%.0f", n)
}

func fmtBytes(_ n: Int) -> String {
    if n >= 1 << 20 { return String(format: "%.1f MiB", Double(n) / 1048576) }
    if n >= 1 << 10 { return String(format: "%.1f KiB", Double(n) / 1024) }
    return "\(n) B"
}
