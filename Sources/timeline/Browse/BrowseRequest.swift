/// What `timeline browse` was asked: read by hand on the launch path, as `show`'s request is
/// and by the same reader (`LaunchArguments`), so that the first paint does not wait for
/// ArgumentParser (`BrowseCommand` declares the same options for help, completions and error
/// messages, and runs this when they are unusual). `LaunchArgumentsTests` holds `flagTable` to
/// ArgumentParser's dump of `browse`.
struct BrowseRequest: Equatable {
    var databasePath: String?
    var color = ColorChoice.auto
    var expand = false

    /// `browse`'s options and flags as `BrowseCommand` declares them for ArgumentParser.
    static let flagTable = LaunchArguments.Table("""
        --db <value>
        --color <value>
        --expand
        """)

    /// The request `arguments` (after `browse`) make, or `nil` when ArgumentParser should read
    /// them: help, an unknown option, a missing or bad value.
    static func parse(_ arguments: ArraySlice<String>) -> BrowseRequest? {
        guard var given = LaunchArguments(arguments, table: flagTable),
              case let .some(color) = given.value("--color", as: ColorChoice.init(rawValue:))
        else { return nil }
        let request = BrowseRequest(databasePath: given.value("--db"), color: color ?? .auto, expand: given.flag("--expand"))
        guard given.isEmpty else { return nil }
        return request
    }

    /// `parse(_:)` of a whole array (tests).
    static func parse(_ arguments: [String]) -> BrowseRequest? {
        parse(arguments[...])
    }
}
