import ArgumentParser
import TimelineKit

/// `post`'s pictures as typed (issue 36): `--image` files paired with `--alt` texts by their
/// order (the first --alt is the first --image's), `--no-alt` for the rest, `--keep-exif`. The
/// refusals are said here in words naming the file, never left to the argument parser.
struct PostPictures {
    let images: [String]
    let alts: [String]
    let noAlt: Bool
    let keepExif: Bool

    /// The draft's pictures. A picture given no --alt is refused unless --no-alt; a person at
    /// a terminal is asked for its alt text first (an empty answer refuses, as no --alt does).
    func pictures() throws(ExitCode) -> [PostPicture] {
        if images.isEmpty, !alts.isEmpty {
            throw fail(ValidationError("--alt is the alt text of an --image, and no --image was given: add --image FILE before it."))
        }
        if alts.count > images.count {
            throw fail(ValidationError("\(alts.count) --alt for \(images.count) --image: the first --alt goes with the first --image, and so on, so each --alt needs its picture."))
        }
        if images.count > MediaLimits.picturesPerPostLimit {
            throw fail(PictureError.tooMany(count: images.count, limit: MediaLimits.picturesPerPostLimit))
        }
        var pictures: [PostPicture] = []
        for (index, file) in images.enumerated() {
            var alt: String? = index < alts.count ? alts[index] : nil
            if alt == nil, !noAlt {
                alt = Self.askAlt(for: file)
                guard alt != nil else { throw fail(PictureError.missingAlt(file: file)) }
            }
            pictures.append(PostPicture(file: file, alt: alt, keepsLocation: keepExif))
        }
        return pictures
    }

    /// The alt text typed for `file` at a terminal; `nil` elsewhere, or when nothing is typed.
    private static func askAlt(for file: String) -> String? {
        guard StandardInput.isTerminal, Terminal.standardErrorIsTerminal else { return nil }
        Terminal.emitError("Alt text for \(TerminalText.line(file)) (what someone who cannot see it should know; empty to stop): ")
        guard let typed = StandardInput.readLine(limit: 4096), !typed.allSatisfy(\.isWhitespace) else { return nil }
        return typed
    }
}
