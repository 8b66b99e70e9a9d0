/// How long a command waits for a database that another process has locked, in milliseconds:
/// the one place the flags and the environment are read for it.
///
/// `show` runs at every shell start, so it waits briefly (100 ms, `--busy-timeout` or
/// `TIMELINE_BUSY_TIMEOUT_MS`) and keeps what it painted; every other command waits the store's
/// 5 s, or `TIMELINE_WRITE_TIMEOUT_MS`. A value that is not a whole number of milliseconds, 0 or
/// more, is ignored, as if it were not set.
enum BusyTimeout {
    /// How long `show` waits unless told otherwise: short enough that a shell start never feels it.
    static let showDefault = 100

    /// `show`'s wait, whatever it shows (the timeline, a filtered page, or what it follows):
    /// `--busy-timeout` (`explicit`), else `TIMELINE_BUSY_TIMEOUT_MS`, else 100 ms.
    static func show(_ explicit: Int?) -> Int {
        explicit ?? milliseconds(in: "TIMELINE_BUSY_TIMEOUT_MS") ?? showDefault
    }

    /// Every other command's wait: `TIMELINE_WRITE_TIMEOUT_MS`, else `nil` (the store's default).
    static var write: Int? {
        milliseconds(in: "TIMELINE_WRITE_TIMEOUT_MS")
    }

    private static func milliseconds(in variable: String) -> Int? {
        Terminal.environment(variable).flatMap { Int($0) }.flatMap { $0 >= 0 ? $0 : nil }
    }
}
