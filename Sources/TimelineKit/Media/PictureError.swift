/// Why a picture given to `post --image` is not sent: each names the file and what to do, and
/// comes before any request (a post is never half sent for it).
public enum PictureError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file cannot be read (missing, a directory, no permission).
    case unreadable(file: String, reason: String)
    /// The file is not a PNG, JPEG, GIF or WebP picture.
    case notAPicture(file: String)
    /// Its header is cut short or inconsistent: its size in pixels cannot be read.
    case damagedHeader(file: String, format: PictureFormat)
    /// A JPEG whose EXIF data cannot be read, so its location cannot be taken out.
    case unreadableExif(file: String, detail: String)
    /// The server does not take this type of picture.
    case typeRefused(file: String, mimeType: String, server: String, accepted: [String])
    /// Larger in bytes than the server takes.
    case tooLarge(file: String, bytes: Int, limit: Int, server: String)
    /// More pixels than the server takes (Mastodon's `image_matrix_limit`).
    case tooManyPixels(file: String, width: Int, height: Int, limit: Int, server: String)
    /// More pictures than a post holds.
    case tooMany(count: Int, limit: Int)
    /// A picture without alt text, and neither `--alt` nor `--no-alt`.
    case missingAlt(file: String)

    /// The file the refusal names, as the person gave it; `nil` for ``tooMany(count:limit:)``,
    /// which is about the post. A draft's refusal finds the file's line by it.
    public var file: String? {
        switch self {
        case let .unreadable(file, _), let .notAPicture(file), let .damagedHeader(file, _), let .unreadableExif(file, _),
             let .typeRefused(file, _, _, _), let .tooLarge(file, _, _, _), let .tooManyPixels(file, _, _, _, _), let .missingAlt(file):
            file
        case .tooMany:
            nil
        }
    }

    public var description: String {
        switch self {
        case let .unreadable(file, reason):
            "The picture \(QuotedValue.quoted(file)) cannot be read: \(reason). Check the path."
        case let .notAPicture(file):
            "\(QuotedValue.quoted(file)) is not a PNG, JPEG, GIF or WebP picture (told from its first bytes, not its name). Convert it to one of those."
        case let .damagedHeader(file, format):
            "The picture \(QuotedValue.quoted(file)) looks like a \(format.rawValue.uppercased()) but its header is cut short or damaged, so its size cannot be read. Save it again from an image editor."
        case let .unreadableExif(file, detail):
            "The location cannot be taken out of \(QuotedValue.quoted(file)): its EXIF data cannot be read (\(detail)). Save it again without metadata, or pass --keep-exif to send it as it is."
        case let .typeRefused(file, mimeType, server, accepted):
            "\(server) does not take \(mimeType) pictures, so \(QuotedValue.quoted(file)) is not sent. It takes \(accepted.isEmpty ? "none" : accepted.joined(separator: ", ")): convert it to one of those."
        case let .tooLarge(file, bytes, limit, server):
            "The picture \(QuotedValue.quoted(file)) is \(bytes) bytes; \(server) takes at most \(limit). Make it smaller (fewer pixels, or more compression) and post again."
        case let .tooManyPixels(file, width, height, limit, server):
            "The picture \(QuotedValue.quoted(file)) is \(width) × \(height) pixels; \(server) takes at most \(limit) pixels in all. Scale it down and post again."
        case let .tooMany(count, limit):
            "A post holds at most \(limit) pictures; \(count) were given. Post the rest in a reply."
        case let .missingAlt(file):
            "The picture \(QuotedValue.quoted(file)) has no alt text: give one with --alt TEXT after its --image (it is what people who cannot see the picture read), or pass --no-alt to post it without."
        }
    }
}
