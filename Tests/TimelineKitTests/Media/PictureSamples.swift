/// Small pictures built byte by byte: only their headers matter to what is tested.
enum PictureSamples {
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
            + bigEndian(width) + bigEndian(height) + [8, 6, 0, 0, 0] + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    static func gif(width: UInt16, height: UInt16) -> [UInt8] {
        Array("GIF89a".utf8) + [UInt8(width & 0xFF), UInt8(width >> 8), UInt8(height & 0xFF), UInt8(height >> 8), 0, 0, 0, 0x3B]
    }

    static func webpLossless(width: Int, height: Int) -> [UInt8] {
        let bits = UInt32(width - 1) | UInt32(height - 1) << 14
        return Array("RIFF".utf8) + [22, 0, 0, 0] + Array("WEBPVP8L".utf8) + [9, 0, 0, 0, 0x2F]
            + [UInt8(bits & 0xFF), UInt8(bits >> 8 & 0xFF), UInt8(bits >> 16 & 0xFF), UInt8(bits >> 24)] + [0, 0, 0, 0, 0]
    }

    /// A JPEG: SOI, an APP1 Exif segment (big-endian TIFF) with IFD0 holding the orientation
    /// (6: turned) and a GPS IFD of latitude "N" and its 3 rationals, SOF0 with the size, SOS,
    /// a few bytes of scan data, EOI.
    static func jpeg(width: UInt16, height: UInt16, withLocation: Bool = true) -> [UInt8] {
        var tiff: [UInt8] = Array("MM".utf8) + [0, 42] + bigEndian(UInt32(8))
        let ifd0Entries: UInt16 = withLocation ? 2 : 1
        tiff += bigEndian16(ifd0Entries)
        tiff += bigEndian16(0x0112) + bigEndian16(3) + bigEndian(UInt32(1)) + bigEndian16(6) + [0, 0]  // orientation 6
        let gpsOffset = UInt32(8 + 2 + 12 * Int(ifd0Entries) + 4)
        if withLocation { tiff += bigEndian16(0x8825) + bigEndian16(4) + bigEndian(UInt32(1)) + bigEndian(gpsOffset) }
        tiff += bigEndian(UInt32(0))  // no IFD1
        if withLocation {
            // GPS IFD: latitude ref "N" (inline), latitude 3 RATIONALs (24 bytes, out of line).
            let valuesOffset = gpsOffset + 2 + 24 + 4
            tiff += bigEndian16(2)
            tiff += bigEndian16(1) + bigEndian16(2) + bigEndian(UInt32(2)) + [0x4E, 0, 0, 0]
            tiff += bigEndian16(2) + bigEndian16(5) + bigEndian(UInt32(3)) + bigEndian(valuesOffset)
            tiff += bigEndian(UInt32(0))
            tiff += latitude
        }
        let exif = Array("Exif".utf8) + [0, 0] + tiff
        let app1 = [0xFF, 0xE1] + bigEndian16(UInt16(exif.count + 2)) + exif
        let sof0: [UInt8] = [0xFF, 0xC0, 0, 17, 8] + bigEndian16(height) + bigEndian16(width) + [3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        let sos: [UInt8] = [0xFF, 0xDA, 0, 12, 3, 1, 0, 2, 0x11, 3, 0x11, 0, 0x3F, 0]
        return [0xFF, 0xD8] + app1 + sof0 + sos + [0x12, 0x34, 0xFF, 0x00, 0x56] + [0xFF, 0xD9]
    }

    /// 48° 51' 29" as three RATIONALs: what a location looks like in the GPS IFD.
    static let latitude: [UInt8] = bigEndian(UInt32(48)) + bigEndian(UInt32(1)) + bigEndian(UInt32(51)) + bigEndian(UInt32(1))
        + bigEndian(UInt32(29)) + bigEndian(UInt32(1))

    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
    }

    static func bigEndian16(_ value: UInt16) -> [UInt8] { [UInt8(value >> 8), UInt8(value & 0xFF)] }
}
