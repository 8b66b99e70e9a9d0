/// Takes the location out of a JPEG's EXIF data without re-encoding the picture: the GPS IFD
/// (tag 0x8825 of IFD0, where cameras and phones write latitude, longitude, altitude, the time
/// and direction) is blanked in place, its entries and the values they point to overwritten
/// with zeros and its count set to 0. Every other byte stays: the pixels, the orientation
/// (tag 0x0112, which decides which way up the picture shows), the camera's other tags.
///
/// Blanking in place rather than cutting the segment out keeps every offset of the TIFF
/// structure valid, so nothing else has to be rewritten: an IFD of 0 entries is followed by
/// the 4 bytes of its next-IFD offset, which are the zeros of the first entry, "no next IFD".
///
/// The layout read (EXIF 2.32, TIFF 6.0): `FF E1`, a length, `Exif\0\0`, then a TIFF header:
/// `II*\0` (little-endian) or `MM\0*` (big-endian) and the offset of IFD0; an IFD is a count
/// (2 bytes), entries of 12 (tag, type, count, value or offset of the value when it is longer
/// than 4 bytes), then the offset of the next IFD. Offsets count from the TIFF header.
enum ExifLocation {
    /// Why the EXIF data could not be read, so the location could not be taken out.
    struct Unreadable: Error, Equatable {
        let detail: String
    }

    /// `bytes` (a JPEG) with every APP1 Exif segment's GPS IFD blanked, and whether one held
    /// anything. Walks the segments up to the scan data (bounded: each step moves forward).
    ///
    /// - Throws: ``Unreadable`` for a segment or EXIF structure cut short or pointing outside
    ///   its segment: what is in it cannot be known, so it cannot be said to hold no location.
    static func removed(from bytes: [UInt8]) throws(Unreadable) -> (bytes: [UInt8], removedLocation: Bool) {
        var result = bytes
        var removed = false
        var offset = 2
        while offset + 1 < result.count {
            guard result[offset] == 0xFF else { throw Unreadable(detail: "a JPEG segment at byte \(offset) does not start with FF") }
            let code = result[offset + 1]
            if code == 0xFF {
                offset += 1
                continue
            }
            offset += 2
            if code == 0x01 || (0xD0 ... 0xD7).contains(code) { continue }
            // The scan data (or the end) follows: no metadata segment comes after it.
            if code == 0xDA || code == 0xD9 { break }
            guard offset + 2 <= result.count else { throw Unreadable(detail: "the JPEG ends inside a segment's length") }
            let length = PictureFormat.bigEndian(result, offset, 2)
            let end = offset + length
            guard length >= 2, end <= result.count else { throw Unreadable(detail: "a JPEG segment at byte \(offset - 2) runs past the end") }
            let exifHeader: [UInt8] = Array("Exif".utf8) + [0, 0]
            if code == 0xE1, length >= 8, Array(result[offset + 2 ..< offset + 8]) == exifHeader {
                var tiff = TIFF(start: offset + 8, end: end)
                if try tiff.blankGPS(in: &result) { removed = true }
            }
            offset = end
        }
        return (result, removed)
    }

    /// The TIFF structure inside one APP1 segment, bounds-checked against the segment.
    private struct TIFF {
        let start: Int
        let end: Int
        var bigEndian = false

        /// Every read is checked against the segment first: what points outside is refused.
        func read(_ bytes: [UInt8], _ at: Int, _ count: Int) throws(Unreadable) -> Int {
            let position = start &+ at
            guard at >= 0, at <= end - start, position + count <= end else {
                throw Unreadable(detail: "an EXIF offset (\(at)) points outside its segment")
            }
            return bigEndian ? PictureFormat.bigEndian(bytes, position, count) : PictureFormat.littleEndian(bytes, position, count)
        }

        func zero(_ bytes: inout [UInt8], _ at: Int, _ count: Int) throws(Unreadable) {
            _ = try read(bytes, at, 0)
            let position = start + at
            guard count >= 0, count <= end - position else { throw Unreadable(detail: "an EXIF value runs past its segment") }
            for index in position ..< position + count { bytes[index] = 0 }
        }

        /// The bytes of one value of each TIFF type (1 BYTE … 12 DOUBLE); 0 for a type unknown.
        static let typeSizes = [0, 1, 1, 2, 4, 8, 1, 1, 2, 4, 8, 4, 8]

        mutating func blankGPS(in bytes: inout [UInt8]) throws(Unreadable) -> Bool {
            guard end - start >= 8 else { throw Unreadable(detail: "the EXIF header is cut short") }
            switch (bytes[start], bytes[start + 1]) {
            case (0x49, 0x49): bigEndian = false
            case (0x4D, 0x4D): bigEndian = true
            default: throw Unreadable(detail: "the EXIF data is neither II nor MM TIFF")
            }
            guard try read(bytes, 2, 2) == 42 else { throw Unreadable(detail: "the EXIF data's TIFF header lacks 42") }
            let ifd0 = try read(bytes, 4, 4)
            let count = try read(bytes, ifd0, 2)
            var gpsOffset: Int?
            for index in 0 ..< count {
                let entry = ifd0 + 2 + 12 * index
                if try read(bytes, entry, 2) == 0x8825 { gpsOffset = try read(bytes, entry + 8, 4) }
            }
            guard let gps = gpsOffset else { return false }
            let entries = try read(bytes, gps, 2)
            guard entries > 0 else { return false }
            _ = try read(bytes, gps + 2 + 12 * entries, 4)  // the whole IFD is inside the segment
            for index in 0 ..< entries {
                let entry = gps + 2 + 12 * index
                let type = try read(bytes, entry + 2, 2)
                let values = try read(bytes, entry + 4, 4)
                let size = type < Self.typeSizes.count ? Self.typeSizes[type] : 0
                let (length, overflow) = size.multipliedReportingOverflow(by: values)
                if !overflow, length > 4 { try zero(&bytes, try read(bytes, entry + 8, 4), length) }
            }
            try zero(&bytes, gps, 2 + 12 * entries)
            return true
        }
    }
}
