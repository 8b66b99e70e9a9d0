/// The East Asian Width property's Wide (W) and Fullwidth (F) code points: the characters a
/// terminal draws in two cells. The standard library exposes no East Asian Width, so this is a
/// copy of the data.
///
/// Source: Unicode 15.0.0, `EastAsianWidth.txt` (2022-05-24), https://www.unicode.org/Public/15.0.0/ucd/
/// Every code point listed there as `W` or `F`, unassigned ones in the CJK blocks included, merged
/// into inclusive ranges. Nothing is subtracted: marks and format characters among them get their
/// zero width from `DisplayWidth`, which asks the general category before this table.
enum EastAsianWidthTable {
    /// Inclusive ranges as `[first, last, first, last, …]`, sorted. A flat array of integer
    /// literals is laid out at compile time, so using it costs no initialisation at launch.
    static let wideRanges: [UInt32] = [
        0x01100, 0x0115F, // Hangul Choseong Kiyeok ..Hangul Choseong Filler
        0x0231A, 0x0231B, // Watch ..Hourglass
        0x02329, 0x0232A, // Left-Pointing Angle Bracket ..Right-Pointing Angle Bracket
        0x023E9, 0x023EC, // Black Right-Pointing Double Triangle ..Black Down-Pointing …
        0x023F0, 0x023F0, // Alarm Clock
        0x023F3, 0x023F3, // Hourglass With Flowing Sand
        0x025FD, 0x025FE, // White Medium Small Square ..Black Medium Small Square
        0x02614, 0x02615, // Umbrella With Rain Drops ..Hot Beverage
        0x02648, 0x02653, // Aries ..Pisces
        0x0267F, 0x0267F, // Wheelchair Symbol
        0x02693, 0x02693, // Anchor
        0x026A1, 0x026A1, // High Voltage Sign
        0x026AA, 0x026AB, // Medium White Circle ..Medium Black Circle
        0x026BD, 0x026BE, // Soccer Ball ..Baseball
        0x026C4, 0x026C5, // Snowman Without Snow ..Sun Behind Cloud
        0x026CE, 0x026CE, // Ophiuchus
        0x026D4, 0x026D4, // No Entry
        0x026EA, 0x026EA, // Church
        0x026F2, 0x026F3, // Fountain ..Flag In Hole
        0x026F5, 0x026F5, // Sailboat
        0x026FA, 0x026FA, // Tent
        0x026FD, 0x026FD, // Fuel Pump
        0x02705, 0x02705, // White Heavy Check Mark
        0x0270A, 0x0270B, // Raised Fist ..Raised Hand
        0x02728, 0x02728, // Sparkles
        0x0274C, 0x0274C, // Cross Mark
        0x0274E, 0x0274E, // Negative Squared Cross Mark
        0x02753, 0x02755, // Black Question Mark Ornament ..White Exclamation Mark Ornam…
        0x02757, 0x02757, // Heavy Exclamation Mark Symbol
        0x02795, 0x02797, // Heavy Plus Sign ..Heavy Division Sign
        0x027B0, 0x027B0, // Curly Loop
        0x027BF, 0x027BF, // Double Curly Loop
        0x02B1B, 0x02B1C, // Black Large Square ..White Large Square
        0x02B50, 0x02B50, // White Medium Star
        0x02B55, 0x02B55, // Heavy Large Circle
        0x02E80, 0x02E99, // CJK Radical Repeat ..CJK Radical Rap
        0x02E9B, 0x02EF3, // CJK Radical Choke ..CJK Radical C-Simplified Turtle
        0x02F00, 0x02FD5, // Kangxi Radical One ..Kangxi Radical Flute
        0x02FF0, 0x02FFB, // Ideographic Description Character Left To Right ..Ideograph…
        0x03000, 0x0303E, // Ideographic Space ..Ideographic Variation Indicator
        0x03041, 0x03096, // Hiragana Letter Small A ..Hiragana Letter Small Ke
        0x03099, 0x030FF, // Combining Katakana-Hiragana Voiced Sound Mark ..Katakana Di…
        0x03105, 0x0312F, // Bopomofo Letter B ..Bopomofo Letter Nn
        0x03131, 0x0318E, // Hangul Letter Kiyeok ..Hangul Letter Araeae
        0x03190, 0x031E3, // Ideographic Annotation Linking Mark ..CJK Stroke Q
        0x031F0, 0x0321E, // Katakana Letter Small Ku ..Parenthesized Korean Character O…
        0x03220, 0x03247, // Parenthesized Ideograph One ..Circled Ideograph Koto
        0x03250, 0x04DBF, // Partnership Sign ..CJK Unified Ideograph-4Dbf
        0x04E00, 0x0A48C, // CJK Unified Ideograph-4E00 ..Yi Syllable Yyr
        0x0A490, 0x0A4C6, // Yi Radical Qot ..Yi Radical Ke
        0x0A960, 0x0A97C, // Hangul Choseong Tikeut-Mieum ..Hangul Choseong Ssangyeorinh…
        0x0AC00, 0x0D7A3, // Hangul Syllable Ga ..Hangul Syllable Hih
        0x0F900, 0x0FAFF, // CJK Compatibility Ideographs (block)
        0x0FE10, 0x0FE19, // Presentation Form For Vertical Comma ..Presentation Form Fo…
        0x0FE30, 0x0FE52, // Presentation Form For Vertical Two Dot Leader ..Small Full …
        0x0FE54, 0x0FE66, // Small Semicolon ..Small Equals Sign
        0x0FE68, 0x0FE6B, // Small Reverse Solidus ..Small Commercial At
        0x0FF01, 0x0FF60, // Fullwidth Exclamation Mark ..Fullwidth Right White Parenthe…
        0x0FFE0, 0x0FFE6, // Fullwidth Cent Sign ..Fullwidth Won Sign
        0x16FE0, 0x16FE4, // Tangut Iteration Mark ..Khitan Small Script Filler
        0x16FF0, 0x16FF1, // Vietnamese Alternate Reading Mark Ca ..Vietnamese Alternate…
        0x17000, 0x187F7, // Tangut Ideographs
        0x18800, 0x18CD5, // Tangut Component-001 ..Khitan Small Script Character-18Cd5
        0x18D00, 0x18D08, // Tangut Ideograph Supplement
        0x1AFF0, 0x1AFF3, // Katakana Letter Minnan Tone-2 ..Katakana Letter Minnan Tone…
        0x1AFF5, 0x1AFFB, // Katakana Letter Minnan Tone-7 ..Katakana Letter Minnan Nasa…
        0x1AFFD, 0x1AFFE, // Katakana Letter Minnan Nasalized Tone-7 ..Katakana Letter M…
        0x1B000, 0x1B122, // Katakana Letter Archaic E ..Katakana Letter Archaic Wu
        0x1B132, 0x1B132, // Hiragana Letter Small Ko
        0x1B150, 0x1B152, // Hiragana Letter Small Wi ..Hiragana Letter Small Wo
        0x1B155, 0x1B155, // Katakana Letter Small Ko
        0x1B164, 0x1B167, // Katakana Letter Small Wi ..Katakana Letter Small N
        0x1B170, 0x1B2FB, // Nushu Character-1B170 ..Nushu Character-1B2Fb
        0x1F004, 0x1F004, // Mahjong Tile Red Dragon
        0x1F0CF, 0x1F0CF, // Playing Card Black Joker
        0x1F18E, 0x1F18E, // Negative Squared Ab
        0x1F191, 0x1F19A, // Squared Cl ..Squared Vs
        0x1F200, 0x1F202, // Square Hiragana Hoka ..Squared Katakana Sa
        0x1F210, 0x1F23B, // Squared CJK Unified Ideograph-624B ..Squared CJK Unified Id…
        0x1F240, 0x1F248, // Tortoise Shell Bracketed CJK Unified Ideograph-672C ..Torto…
        0x1F250, 0x1F251, // Circled Ideograph Advantage ..Circled Ideograph Accept
        0x1F260, 0x1F265, // Rounded Symbol For Fu ..Rounded Symbol For Cai
        0x1F300, 0x1F320, // Cyclone ..Shooting Star
        0x1F32D, 0x1F335, // Hot Dog ..Cactus
        0x1F337, 0x1F37C, // Tulip ..Baby Bottle
        0x1F37E, 0x1F393, // Bottle With Popping Cork ..Graduation Cap
        0x1F3A0, 0x1F3CA, // Carousel Horse ..Swimmer
        0x1F3CF, 0x1F3D3, // Cricket Bat And Ball ..Table Tennis Paddle And Ball
        0x1F3E0, 0x1F3F0, // House Building ..European Castle
        0x1F3F4, 0x1F3F4, // Waving Black Flag
        0x1F3F8, 0x1F43E, // Badminton Racquet And Shuttlecock ..Paw Prints
        0x1F440, 0x1F440, // Eyes
        0x1F442, 0x1F4FC, // Ear ..Videocassette
        0x1F4FF, 0x1F53D, // Prayer Beads ..Down-Pointing Small Red Triangle
        0x1F54B, 0x1F54E, // Kaaba ..Menorah With Nine Branches
        0x1F550, 0x1F567, // Clock Face One Oclock ..Clock Face Twelve-Thirty
        0x1F57A, 0x1F57A, // Man Dancing
        0x1F595, 0x1F596, // Reversed Hand With Middle Finger Extended ..Raised Hand Wit…
        0x1F5A4, 0x1F5A4, // Black Heart
        0x1F5FB, 0x1F64F, // Mount Fuji ..Person With Folded Hands
        0x1F680, 0x1F6C5, // Rocket ..Left Luggage
        0x1F6CC, 0x1F6CC, // Sleeping Accommodation
        0x1F6D0, 0x1F6D2, // Place Of Worship ..Shopping Trolley
        0x1F6D5, 0x1F6D7, // Hindu Temple ..Elevator
        0x1F6DC, 0x1F6DF, // Wireless ..Ring Buoy
        0x1F6EB, 0x1F6EC, // Airplane Departure ..Airplane Arriving
        0x1F6F4, 0x1F6FC, // Scooter ..Roller Skate
        0x1F7E0, 0x1F7EB, // Large Orange Circle ..Large Brown Square
        0x1F7F0, 0x1F7F0, // Heavy Equals Sign
        0x1F90C, 0x1F93A, // Pinched Fingers ..Fencer
        0x1F93C, 0x1F945, // Wrestlers ..Goal Net
        0x1F947, 0x1F9FF, // First Place Medal ..Nazar Amulet
        0x1FA70, 0x1FA7C, // Ballet Shoes ..Crutch
        0x1FA80, 0x1FA88, // Yo-Yo ..Flute
        0x1FA90, 0x1FABD, // Ringed Planet ..Wing
        0x1FABF, 0x1FAC5, // Goose ..Person With Crown
        0x1FACE, 0x1FADB, // Moose ..Pea Pod
        0x1FAE0, 0x1FAE8, // Melting Face ..Shaking Face
        0x1FAF0, 0x1FAF8, // Hand With Index Finger And Thumb Crossed ..Rightwards Pushing Hand
        0x20000, 0x2FFFD, // CJK Ideographs Extension B..F, Compatibility Supplement, reserved
        0x30000, 0x3FFFD, // CJK Ideographs Extension G, H, reserved
    ]

    /// Whether `value` is East Asian Wide or Fullwidth.
    static func isWide(_ value: UInt32) -> Bool {
        let ranges = wideRanges
        guard value >= ranges[0], value <= ranges[ranges.count - 1] else { return false }
        // Binary search for the last range that starts at or before `value`.
        var low = 0
        var high = ranges.count / 2 - 1
        while low < high {
            let middle = (low + high + 1) / 2
            if ranges[middle * 2] <= value {
                low = middle
            } else {
                high = middle - 1
            }
        }
        return value <= ranges[low * 2 + 1]
    }
}
