/// What `timeline browse` was asked: read by hand on the launch path, as `show`'s request is,
/// so that the first paint does not wait for ArgumentParser (`BrowseCommand` declares the same
/// options for help, completions and error messages, and runs this when they are unusual).
struct BrowseRequest: Equatable {
    var databasePath: String?
    var color = ColorChoice.auto
    var expand = false

    /// The request `arguments` (after `browse`) make, or `nil` when ArgumentParser should read
    /// them: help, an unknown option, a missing or bad value.
    static func parse(_ arguments: some Collection<String>) -> BrowseRequest? {
        var request = BrowseRequest()
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            var name = argument
            var attached: String?
            if argument.hasPrefix("--"), let equals = argument.firstIndex(of: "=") {
                name = String(argument[..<equals])
                attached = String(argument[argument.index(after: equals)...])
            }
            func value() -> String? { attached ?? rest.popFirst() }
            switch name {
            case "--db":
                guard let path = value(), !path.isEmpty, !path.hasPrefix("-") || attached != nil else { return nil }
                request.databasePath = path
            case "--color":
                guard let choice = value().flatMap(ColorChoice.init(rawValue:)) else { return nil }
                request.color = choice
            case "--expand" where attached == nil:
                request.expand = true
            default:
                return nil
            }
        }
        return request
    }
}
