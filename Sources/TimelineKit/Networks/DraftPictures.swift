/// The pictures a draft written in the editor names (issue 36, `browse`'s `r`): lines at its end,
/// `image: PATH`, each followed by `alt: TEXT`, as a person would list attachments under a
/// letter:
///
///     Nice shot! Mine from the same spot:
///
///     image: ~/Pictures/bridge.jpg
///     alt: The bridge at dusk from the north bank, lights on
///
/// Only a trailing block counts: from the first `image:` line after which every line is an
/// `image:` or `alt:` line, blank, or a help line (``DraftFile/isHelpLine(_:)``). A reply
/// whose text has `image:` in the middle, or ends with an `alt:` line under no picture, keeps
/// it as text. The keywords are lower case and start the line, as the help shows them.
///
/// A path is taken relative to the working directory (the one `browse` was started in), and
/// `~` or `~/…` stands for the home directory. Each refusal names its line in the file, so the
/// person finds what to change when the editor opens again.
package struct DraftPictures: Sendable, Hashable {
    /// One `image:` line and the `alt:` line under it.
    package struct Entry: Sendable, Hashable {
        /// The path as written (what refusals name).
        package var path: String
        /// The alt text; `nil` when the `image:` line has no `alt:` line under it.
        package var alt: String?
        /// The `image:` line's number in the file, from 1.
        package var line: Int
    }

    /// Why a draft's pictures are refused; each names the line and what to write instead.
    package enum Failure: Error, Sendable, Hashable, CustomStringConvertible {
        /// `alt:` under another `alt:` line.
        case secondAlt(line: Int, imageLine: Int)
        /// `image:` with no path after it.
        case noPath(line: Int)
        /// A picture with no `alt:` line under it (or an empty one).
        case missingAlt(path: String, line: Int)
        /// A fifth `image:` line.
        case tooMany(line: Int, limit: Int)
        /// Pictures, and no text above them.
        case noText(line: Int)

        package var description: String {
            switch self {
            case let .secondAlt(line, imageLine):
                "line \(line): a second alt: line for the picture of line \(imageLine); write its alt text on one alt: line."
            case let .noPath(line):
                "line \(line): image: names no file; write its path after image: (relative to the directory browse was started in, or ~/…)."
            case let .missingAlt(path, line):
                "line \(line): the picture \(QuotedValue.quoted(path)) has no alt text; add a line alt: TEXT under it, saying what someone who cannot see it should know."
            case let .tooMany(line, limit):
                "line \(line): a post holds at most \(limit) pictures; post the rest in a reply."
            case let .noText(line):
                "line \(line): the reply has pictures and no text; write its text above the image: lines."
            }
        }
    }

    /// What the draft says apart from its pictures: help lines left out, ends trimmed, as
    /// ``DraftFile/text(from:)`` reads a draft without pictures.
    package var text: String
    /// The pictures, in the order of their lines.
    package var entries: [Entry]

    /// The help lines that say how to name pictures, for ``DraftFile/help(for:about:takesPictures:notPosted:)``.
    static let help = [
        "Pictures (up to 4): at the end, a line image: PATH (from the directory browse was started",
        "in, or ~/…) and under it alt: TEXT, what someone who cannot see it should know.",
    ]

    /// Reads `contents`, the whole file as the editor left it (line numbers count from its
    /// first line). A picture without alt text is refused, as `post` refuses one without
    /// `--alt`: a reply written in an editor has room to write it.
    package static func read(_ contents: String) throws(Failure) -> DraftPictures {
        let lines = contents.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        // Back from the end over the lines a picture block may hold; the block starts at the
        // first image: line of that run (alt: lines above it are the text's).
        var start = lines.endIndex
        var index = lines.endIndex
        while index > lines.startIndex {
            let line = lines[index - 1]
            if DraftFile.isHelpLine(line) || line.allSatisfy(\.isWhitespace) {
                index -= 1
            } else if let (keyword, _) = parse(line) {
                index -= 1
                if keyword == .image { start = index }
            } else {
                break
            }
        }
        var entries: [Entry] = []
        var lastAlt: Int?
        for number in start ..< lines.endIndex {
            let line = lines[number]
            // Blank and help lines between an image: line and its alt: line keep them together.
            guard let (keyword, value) = parse(line) else { continue }
            switch keyword {
            case .image:
                guard !value.isEmpty else { throw .noPath(line: number + 1) }
                guard entries.count < MediaLimits.picturesPerPostLimit else {
                    throw .tooMany(line: number + 1, limit: MediaLimits.picturesPerPostLimit)
                }
                entries.append(Entry(path: value, alt: nil, line: number + 1))
                lastAlt = nil
            case .alt:
                if let lastAlt { throw .secondAlt(line: number + 1, imageLine: lastAlt) }
                // `start` is an image: line, so an alt: line in the block has a picture above it.
                entries[entries.count - 1].alt = value.isEmpty ? nil : value
                lastAlt = entries[entries.count - 1].line
            }
        }
        let text = DraftFile.text(from: lines[..<start].joined(separator: "\n"))
        if let first = entries.first {
            if text.isEmpty { throw .noText(line: first.line) }
            if let bare = entries.first(where: { $0.alt == nil }) { throw .missingAlt(path: bare.path, line: bare.line) }
        }
        return DraftPictures(text: text, entries: entries)
    }

    /// The draft's pictures as a post sends them: each path with `~` expanded against `home`
    /// (`$HOME`), named as written (refusals name what the person wrote).
    package func pictures(home: String?) -> [PostPicture] {
        entries.map { entry in
            PostPicture(file: Self.expand(entry.path, home: home), alt: entry.alt, name: entry.path)
        }
    }

    /// The line of the picture a refusal names (``PictureError/file``), for the person to find.
    package func line(of file: String) -> Int? {
        entries.first { $0.path == file }?.line
    }

    /// `~` and `~/…` against `home`; any other path as it is (relative to the working directory).
    static func expand(_ path: String, home: String?) -> String {
        guard let home, !home.isEmpty, path == "~" || path.hasPrefix("~/") else { return path }
        return home + path.dropFirst()
    }

    private enum Keyword { case image, alt }

    /// The keyword starting `line` and the rest of it trimmed: `image: PATH`, `alt: TEXT`.
    private static func parse(_ line: Substring) -> (Keyword, String)? {
        for (keyword, prefix) in [(Keyword.image, "image:"), (.alt, "alt:")] where line.hasPrefix(prefix) {
            var value = line.dropFirst(prefix.count)
            while value.first?.isWhitespace == true { value.removeFirst() }
            while value.last?.isWhitespace == true { value.removeLast() }
            return (keyword, String(value))
        }
        return nil
    }
}
