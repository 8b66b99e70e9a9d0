/// What the text fuzz targets share: handing the process to libFuzzer, and a time limit on each
/// input that does not depend on which thread a signal lands on.

/// libFuzzer's driver: parses the command line and runs the fuzzing loop.
@_silgen_name("LLVMFuzzerRunDriver")
func LLVMFuzzerRunDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer with the program's arguments, calling `callback` with each input. SwiftPM
/// links an executable with `main` aliased to `<module>_main`; built with `-parse-as-library`, a
/// target has no top-level code, so its `<module>_main` calls this.
public func runLibFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var argc = argc
    var argv = argv
    return LLVMFuzzerRunDriver(&argc, &argv, callback)
}

/// The longest one input may take. libFuzzer's `-timeout` misses some: its alarm signal can land
/// on another thread of the process and be ignored, so each input is also timed here. Linear
/// work on the repetitions the targets make takes a few milliseconds; the quadratic cases of
/// issue 12 took 5-30 s.
public let slowestAllowed = Duration.seconds(2)

/// Runs `body`, and stops the run as a finding when it took longer than `slowestAllowed`.
public func timed(_ input: String, _ body: () -> Void) {
    let elapsed = ContinuousClock().measure(body)
    if elapsed > slowestAllowed {
        fatalError("\(elapsed) for one input (more than \(slowestAllowed): not linear time?): \(input.prefix(200).debugDescription)")
    }
}
