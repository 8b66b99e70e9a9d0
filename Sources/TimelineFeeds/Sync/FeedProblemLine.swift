/// A problem as a subscription keeps it: one line of at most ``maximumCharacters``, every
/// control character (line breaks and escape sequences a server or a feed put in its words)
/// replaced by a space. What it holds came partly from a server, so whoever shows it still
/// treats it as untrusted text; this only makes it one bounded line wherever it is stored.
enum FeedProblemLine {
    static let maximumCharacters = 500

    static func line(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            guard count < maximumCharacters else { scalars.append("…"); break }
            let control = scalar.properties.generalCategory == .control || scalar.properties.generalCategory == .format
                || scalar == "\u{2028}" || scalar == "\u{2029}"
            scalars.append(control ? " " : scalar)
            count += 1
        }
        return String(scalars)
    }
}
