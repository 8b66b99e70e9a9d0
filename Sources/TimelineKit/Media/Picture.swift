/// A picture ready to be sent: the bytes that will leave the machine (a JPEG's location already
/// taken out unless kept), what they are, and their size in pixels.
///
/// Made from a file by ``init(file:named:keepingLocation:)``, which reads the file once and refuses,
/// naming it, what is not a picture the networks take; the limits of the server it goes to
/// are ``MediaLimits``'s to check.
public struct Picture: Sendable, Hashable {
    /// The file as the person named it, for messages.
    public var file: String
    /// What is sent.
    public var bytes: [UInt8]
    /// What the bytes are (their MIME type is ``PictureFormat/mimeType``).
    public var format: PictureFormat
    /// Size in pixels, from the header.
    public var width: Int
    public var height: Int
    /// Whether a location was taken out of its EXIF data.
    public var removedLocation: Bool

    /// The largest file read: no network takes a picture near this (Mastodon's default is
    /// 16 MB), and reading stops here rather than filling memory with a mistaken path to a
    /// film or a disk image.
    public static let fileSizeLimit = 64 << 20

    /// Reads `file`: a regular file (a symbolic link is followed) of at most ``fileSizeLimit``
    /// bytes, a PNG, JPEG, GIF or WebP whose header gives its size. A JPEG's EXIF location
    /// (GPS) is taken out, in place, unless `keepingLocation` (`ExifLocation`).
    ///
    /// - Throws: ``PictureError`` naming `file`.
    /// `named` is the file as messages name it (the person's, for an outbox copy); `file` by default.
    public init(file: String, named: String? = nil, keepingLocation: Bool = false) throws(PictureError) {
        let shown = named ?? file
        let path = FileSystem.resolvedPath(file) ?? file
        let bytes: [UInt8]
        do {
            bytes = try FileSystem.readRegularFile(at: path, limit: Self.fileSizeLimit)
        } catch {
            throw .unreadable(file: shown, reason: Self.reason(error))
        }
        try self.init(file: shown, bytes: bytes, keepingLocation: keepingLocation)
    }

    /// A picture of `bytes`, named `file` in messages: as ``init(file:named:keepingLocation:)``
    /// once the file is read.
    public init(file: String, bytes: [UInt8], keepingLocation: Bool = false) throws(PictureError) {
        guard let format = PictureFormat.sniff(bytes) else { throw .notAPicture(file: file) }
        guard let size = format.pixelSize(of: bytes) else { throw .damagedHeader(file: file, format: format) }
        var sent = bytes
        var removed = false
        if format == .jpeg, !keepingLocation {
            do {
                (sent, removed) = try ExifLocation.removed(from: bytes)
            } catch {
                throw .unreadableExif(file: file, detail: error.detail)
            }
        }
        self.file = file
        self.bytes = sent
        self.format = format
        width = size.width
        height = size.height
        removedLocation = removed
    }

    private static func reason(_ failure: FileSystem.ReadFailure) -> String {
        switch failure {
        case let .notRegularFile(kind): "it is \(kind), not a file"
        case let .tooLarge(size, limit): "it is \(size) bytes, more than the \(limit) a picture may be"
        case let .system(error): error.reason
        }
    }
}
