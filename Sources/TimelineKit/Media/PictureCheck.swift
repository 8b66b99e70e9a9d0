/// What is checked of a picture file before anything draws it (`timeline browse`'s `p`): that
/// it is a PNG, JPEG, GIF or WebP (from its first bytes), whole (it ends as its format ends),
/// and not larger in pixels than ``sideLimit`` a side or ``pixelLimit`` in all. The size comes
/// from the header alone (``PictureFormat/pixelSize(of:)``), so a decompression bomb (a
/// 30,000 × 30,000 PNG of a few kilobytes) is refused before any decoder sees it.
///
/// ```swift
/// let size = try PictureCheck.check(bytes)   // (format: .png, width: 800, height: 600)
/// ```
package enum PictureCheck {
    /// The widest or tallest picture drawn: more than any screen shows, far less than a bomb.
    package static let sideLimit = 10_000
    /// The most pixels drawn (40 megapixels, a large camera's photo): decoded at 4 bytes a
    /// pixel, 160 MB, under the decoder's address-space limit.
    package static let pixelLimit = 40_000_000

    /// Why a file is not drawn, in one line for the picture screen.
    package enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case notAPicture
        case damagedHeader(PictureFormat)
        case truncated(PictureFormat)
        case tooLarge(width: Int, height: Int)

        package var description: String {
            switch self {
            case .notAPicture: "not drawn: not a PNG, JPEG, GIF or WebP picture"
            case let .damagedHeader(format): "not drawn: its \(format.rawValue.uppercased()) header is damaged"
            case let .truncated(format): "not drawn: the \(format.rawValue.uppercased()) file is cut short"
            case let .tooLarge(width, height):
                "not drawn: \(width) × \(height) pixels is more than \(PictureCheck.sideLimit) a side or \(PictureCheck.pixelLimit / 1_000_000) megapixels"
            }
        }
    }

    /// The format and size of `bytes`, or why they are not drawn.
    package static func check(_ bytes: [UInt8]) throws(Refusal) -> (format: PictureFormat, width: Int, height: Int) {
        guard let format = PictureFormat.sniff(bytes) else { throw .notAPicture }
        guard let size = format.pixelSize(of: bytes) else { throw .damagedHeader(format) }
        let (pixels, overflow) = size.width.multipliedReportingOverflow(by: size.height)
        guard size.width <= sideLimit, size.height <= sideLimit, !overflow, pixels <= pixelLimit else {
            throw .tooLarge(width: size.width, height: size.height)
        }
        guard isWhole(bytes, format) else { throw .truncated(format) }
        return (format, size.width, size.height)
    }

    /// Whether the file ends as its format ends: a PNG with its `IEND` chunk (its 12 last bytes:
    /// length 0, `IEND`, the CRC AE 42 60 82), a JPEG with EOI (FF D9), a GIF with its trailer
    /// (3B), a WebP with as many bytes as its RIFF header counts. A few bytes of padding some
    /// servers add after a JPEG's EOI are allowed (zeros or a line feed).
    static func isWhole(_ bytes: [UInt8], _ format: PictureFormat) -> Bool {
        switch format {
        case .png:
            return bytes.count >= 20
                && Array(bytes.suffix(12)) == [0, 0, 0, 0, 0x49, 0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        case .jpeg:
            var end = bytes.count
            while end > 2, bytes.count - end < 16, bytes[end - 1] == 0 || bytes[end - 1] == 0x0A || bytes[end - 1] == 0x0D { end -= 1 }
            return end >= 4 && bytes[end - 2] == 0xFF && bytes[end - 1] == 0xD9
        case .gif:
            return bytes.last == 0x3B
        case .webp:
            // In bounds: sniffing found "RIFF", 4 bytes of size and "WEBP", 12 bytes at least.
            return PictureFormat.littleEndian(bytes, 4, 4) + 8 <= bytes.count
        }
    }
}
