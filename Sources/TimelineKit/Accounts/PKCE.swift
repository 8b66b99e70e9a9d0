/// Proof Key for Code Exchange (RFC 7636), S256: the authorization code is bound to a secret
/// that never leaves this process until the exchange, so a code read off the screen or
/// intercepted on its way is useless to anyone else.
struct PKCE: Sendable {
    /// 43 characters of base64url from 32 random bytes (RFC 7636 §4.1), sent with the exchange.
    let verifier: String
    /// `BASE64URL(SHA256(verifier))`, sent with the authorization request.
    var challenge: String { Self.base64URL(ContentDigest.sha256(Array(verifier.utf8))) }

    init() {
        var generator = SystemRandomNumberGenerator()
        verifier = Self.base64URL((0..<32).map { _ in UInt8.random(in: 0...255, using: &generator) })
    }

    init(verifier: String) {
        self.verifier = verifier
    }

    /// Base64 with the URL alphabet (`-`, `_`) and no padding (RFC 4648 §5).
    static func base64URL(_ bytes: [UInt8]) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_".utf8)
        var output: [UInt8] = []
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let value = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for index in 0...chunk.count {
                output.append(alphabet[Int((value >> (18 - 6 * UInt32(index))) & 0x3F)])
            }
        }
        return String(decoding: output, as: UTF8.self)
    }
}
