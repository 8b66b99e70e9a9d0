import Testing

/// Time bounds as ratios: the cost of a hostile input against a normal input of the same size,
/// measured side by side in the same process, so that they hold on a slow or busy machine where
/// absolute times do not. A quadratic case at the sizes the tests use is hundreds of times over.
enum CostRatio {
    /// How many times longer `hostile` takes than `normal`: the fastest of up to `runs` runs of
    /// each, alternating, stopping as soon as the ratio is within `limit` or ten times beyond it
    /// (a busy machine slows a run; it does not speed one up, so the fastest run is the truest).
    static func measure(within limit: Double, runs: Int = 3, hostile: () -> Void, normal: () -> Void) -> Double {
        let clock = ContinuousClock()
        var fastest = (hostile: Duration.seconds(Int64.max), normal: Duration.seconds(Int64.max))
        var ratio = Double.infinity
        for _ in 0..<runs {
            fastest.normal = min(fastest.normal, clock.measure(normal))
            fastest.hostile = min(fastest.hostile, clock.measure(hostile))
            ratio = seconds(fastest.hostile) / max(seconds(fastest.normal), 1e-9)
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

    static func seconds(_ duration: Duration) -> Double {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) * 1e-18
    }
}
