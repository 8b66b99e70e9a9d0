/// The picture formats `post --image` sends, told from their first bytes (never from the file's
/// name), with their pixel size read from the header: what the server's limits are checked
/// against before anything is sent.
///
/// The reader is bounded: it looks at fixed offsets for PNG, GIF and WebP, and walks a JPEG's
/// segments forward only, each step moving at least two bytes, so a hostile header costs at most
/// one pass over the bytes; a header cut short or inconsistent is `nil`, never a crash.
public enum PictureFormat: String, Sendable, Hashable, CaseIterable {
    case png, jpeg, gif, webp

    /// Its MIME type, as servers list them (`image/png`).
    public var mimeType: String { "image/" + rawValue }

    /// The format of `bytes`, from their magic numbers; `nil` for anything else.
    public static func sniff(_ bytes: [UInt8]) -> PictureFormat? {
        if bytes.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) { return .png }
        if bytes.starts(with: [0xFF, 0xD8, 0xFF]) { return .jpeg }
        if bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) { return .gif }
        if bytes.count >= 12, bytes.starts(with: Array("RIFF".utf8)), Array(bytes[8 ..< 12]) == Array("WEBP".utf8) { return .webp }
        return nil
    }

    /// Width and height in pixels from the header of `bytes` (which must be of this format);
    /// `nil` when the header is cut short, inconsistent, or says a size of 0.
    public func pixelSize(of bytes: [UInt8]) -> (width: Int, height: Int)? {
        let size: (width: Int, height: Int)?
        switch self {
        case .png:
            // Signature (8), then the IHDR chunk first: length (4), "IHDR", width, height (4 each, big-endian).
            guard bytes.count >= 24, Array(bytes[12 ..< 16]) == Array("IHDR".utf8) else { return nil }
            size = (Self.bigEndian(bytes, 16, 4), Self.bigEndian(bytes, 20, 4))
        case .gif:
            // "GIF89a", then the logical screen's width and height (2 each, little-endian).
            guard bytes.count >= 10 else { return nil }
            size = (Self.littleEndian(bytes, 6, 2), Self.littleEndian(bytes, 8, 2))
        case .webp:
            size = Self.webpSize(bytes)
        case .jpeg:
            size = Self.jpegSize(bytes)
        }
        guard let size, size.width > 0, size.height > 0 else { return nil }
        return size
    }

    /// "RIFF", size, "WEBP", then the first chunk at 12: `VP8X` (the canvas, 24-bit sizes less
    /// one at 24 and 27), `VP8L` (a 0x2F byte, then 14-bit sizes less one), or `VP8 ` (a frame
    /// tag of 3 bytes, the start code 9D 01 2A, then 14-bit sizes at 26 and 28).
    private static func webpSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        guard bytes.count >= 30 else { return nil }
        switch Array(bytes[12 ..< 16]) {
        case Array("VP8X".utf8):
            return (littleEndian(bytes, 24, 3) + 1, littleEndian(bytes, 27, 3) + 1)
        case Array("VP8L".utf8):
            guard bytes[20] == 0x2F else { return nil }
            let bits = littleEndian(bytes, 21, 4)
            return ((bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1)
        case Array("VP8 ".utf8):
            guard bytes[23] == 0x9D, bytes[24] == 0x01, bytes[25] == 0x2A else { return nil }
            return (littleEndian(bytes, 26, 2) & 0x3FFF, littleEndian(bytes, 28, 2) & 0x3FFF)
        default:
            return nil
        }
    }

    /// Walks the segments after SOI to the first start of frame (SOF0–SOF15 but DHT, JPG and
    /// DAC: C4, C8, CC), whose height and width follow the sample precision. Each segment is a
    /// marker (FF, then a code; FF fill bytes skipped) and, but for the standalone markers (TEM,
    /// RST0–7), a big-endian length of at least 2 that counts itself. Scan data (after SOS)
    /// before a frame header means none comes: `nil`.
    private static func jpegSize(_ bytes: [UInt8]) -> (width: Int, height: Int)? {
        var offset = 2
        while offset + 1 < bytes.count {
            guard bytes[offset] == 0xFF else { return nil }
            let code = bytes[offset + 1]
            if code == 0xFF {
                offset += 1  // a fill byte
                continue
            }
            offset += 2
            if code == 0x01 || (0xD0 ... 0xD7).contains(code) { continue }
            guard code != 0xD9, code != 0xDA, offset + 2 <= bytes.count else { return nil }
            let length = bigEndian(bytes, offset, 2)
            guard length >= 2 else { return nil }
            if (0xC0 ... 0xCF).contains(code), code != 0xC4, code != 0xC8, code != 0xCC {
                guard length >= 7, offset + 7 <= bytes.count else { return nil }
                return (bigEndian(bytes, offset + 5, 2), bigEndian(bytes, offset + 3, 2))
            }
            offset += length
        }
        return nil
    }

    /// In bounds: every caller checked `offset + count <= bytes.count` first; `count` is at most 4.
    static func bigEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset ..< offset + count].reduce(0) { $0 << 8 | Int($1) }
    }

    /// As ``bigEndian(_:_:_:)``, least significant byte first.
    static func littleEndian(_ bytes: [UInt8], _ offset: Int, _ count: Int) -> Int {
        bytes[offset ..< offset + count].reversed().reduce(0) { $0 << 8 | Int($1) }
    }
}
