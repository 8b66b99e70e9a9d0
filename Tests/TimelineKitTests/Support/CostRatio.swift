import Foundation
import Testing

/// Time bounds as ratios: the cost of a hostile input against a normal input of the same size,
/// measured side by side in the same process, so that they hold on a slow or busy machine where
/// absolute times do not. A quadratic case at the sizes the tests use is hundreds of times over.
/// Each run is timed by the CPU time of the thread that runs it, not by the wall clock: a machine
/// busy with the rest of the suite takes the processor away, and a wall clock counts that wait.
enum CostRatio {
    /// How many times longer `hostile` takes than `normal`: the fastest of up to `runs` runs of
    /// each, alternating, stopping as soon as the ratio is within `limit` or ten times beyond it
    /// (a busy machine slows a run; it does not speed one up, so the fastest run is the truest).
    static func measure(within limit: Double, runs: Int = 3, hostile: () -> Void, normal: () -> Void) -> Double {
        var fastest = (hostile: Double.infinity, normal: Double.infinity)
        var ratio = Double.infinity
        for _ in 0..<runs {
            fastest.normal = min(fastest.normal, threadCPUSeconds(normal))
            fastest.hostile = min(fastest.hostile, threadCPUSeconds(hostile))
            ratio = fastest.hostile / max(fastest.normal, 1e-9)
            // Within the limit, or so far beyond it that no noise explains it: done.
            if ratio <= limit || ratio > 10 * limit { break }
        }
        return ratio
    }

    /// Expects `hostile` to cost at most `limit` times what `normal` costs.
    static func expect(_ shape: String, within limit: Double = 20, runs: Int = 3, hostile: () -> Void, normal: () -> Void,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        let ratio = measure(within: limit, runs: runs, hostile: hostile, normal: normal)
        #expect(ratio <= limit, "\(shape): \((ratio * 10).rounded() / 10)× the cost of a normal input of the same size", sourceLocation: sourceLocation)
    }

    /// The CPU time the calling thread spends in `body`, which runs on it.
    static func threadCPUSeconds(_ body: () -> Void) -> Double {
        var start = timespec(), end = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &start)
        body()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &end)
        return Double(end.tv_sec - start.tv_sec) + Double(end.tv_nsec - start.tv_nsec) * 1e-9
    }
}
