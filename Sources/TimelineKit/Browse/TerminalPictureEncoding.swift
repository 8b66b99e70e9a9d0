/// The bytes that draw a picture file, as it is, with a terminal's own protocol: kitty's for a
/// PNG, iTerm2's for any format it decodes. The file's bytes reach the terminal only as base64
/// inside the protocol, so nothing in a hostile file can act as a control sequence; what the
/// terminal then decodes is its own business, bounded by the checks made before
/// (``PictureCheck``).
///
/// ```swift
/// let bytes = TerminalPictureEncoding.kitty(png: file, columns: 40, rows: 12)
/// ```
package enum TerminalPictureEncoding {
    /// The most base64 characters in one kitty escape sequence, as the protocol requires.
    package static let kittyChunk = 4096

    /// kitty's graphics protocol: transmit and show (`a=T`) the PNG (`f=100`) sent directly
    /// (`t=d`), scaled into `columns` × `rows` cells at the cursor (`c=`, `r=`), answers off
    /// (`q=2`: an answer would arrive as typed keys), the cursor left where it was (`C=1`).
    /// The base64 goes in chunks of at most ``kittyChunk`` characters: every chunk but the
    /// last says `m=1`, the last `m=0`; the keys are on the first only.
    package static func kitty(png: [UInt8], columns: Int, rows: Int) -> [UInt8] {
        let encoded = base64(png)
        var output: [UInt8] = []
        var start = 0
        repeat {
            let end = min(start + kittyChunk, encoded.count)
            let more = end < encoded.count ? 1 : 0
            let keys = start == 0 ? "a=T,f=100,t=d,c=\(columns),r=\(rows),C=1,q=2,m=\(more)" : "m=\(more)"
            output += Array("\u{1b}_G\(keys);".utf8) + encoded[start ..< end] + Array("\u{1b}\\".utf8)
            start = end
        } while start < encoded.count
        return output
    }

    /// Deletes every picture kitty shows and frees their data (`a=d`, `d=A`), when the picture
    /// screen closes: its placements would otherwise stay over the list.
    package static let kittyDeleteAll = Array("\u{1b}_Ga=d,d=A,q=2\u{1b}\\".utf8)

    /// iTerm2's inline image (`OSC 1337 ; File=`), also drawn by WezTerm: the file as it is
    /// (`size` its length in bytes), in `columns` × `rows` cells (a number alone means cells),
    /// its aspect ratio kept, ended by BEL.
    package static func iTerm2(file: [UInt8], columns: Int, rows: Int) -> [UInt8] {
        Array("\u{1b}]1337;File=inline=1;size=\(file.count);width=\(columns);height=\(rows);preserveAspectRatio=1:".utf8)
            + base64(file) + [0x07]
    }

    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Standard base64 (RFC 4648 §4) with `=` padding.
    package static func base64(_ bytes: [UInt8]) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index + 3 <= bytes.count {
            let value = UInt32(bytes[index]) << 16 | UInt32(bytes[index + 1]) << 8 | UInt32(bytes[index + 2])
            output += [alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)],
                       alphabet[Int(value >> 6 & 63)], alphabet[Int(value & 63)]]
            index += 3
        }
        let rest = bytes.count - index
        if rest > 0 {
            let second = rest == 2 ? UInt32(bytes[index + 1]) : 0
            let value = UInt32(bytes[index]) << 16 | second << 8
            output += [alphabet[Int(value >> 18 & 63)], alphabet[Int(value >> 12 & 63)],
                       rest == 2 ? alphabet[Int(value >> 6 & 63)] : UInt8(ascii: "="), UInt8(ascii: "=")]
        }
        return output
    }
}
