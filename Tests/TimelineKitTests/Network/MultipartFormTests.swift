import Foundation
import Testing
@testable import TimelineKit

/// The multipart body of Mastodon's media upload: values go byte for byte, and the boundary
/// never occurs in them.
@Suite struct MultipartFormTests {
    @Test func valuesGoByteForByteBetweenBoundariesAsRFC7578Draws() {
        var form = MultipartForm()
        form.addFile("file", fileName: "image.png", contentType: "image/png", bytes: [0x89, 0x0D, 0x0A, 0x2D, 0x2D])
        form.addText("description", #"@/etc/passwd;type=text/html "q" 🐈"#)
        let (body, type) = form.encoded { "B" }
        #expect(type == "multipart/form-data; boundary=B")
        let expected: [UInt8] = Array("--B\r\nContent-Disposition: form-data; name=\"file\"; filename=\"image.png\"\r\nContent-Type: image/png\r\n\r\n".utf8)
            + [0x89, 0x0D, 0x0A, 0x2D, 0x2D]
            + Array("\r\n--B\r\nContent-Disposition: form-data; name=\"description\"\r\n\r\n".utf8)
            + Array(#"@/etc/passwd;type=text/html "q" 🐈"#.utf8) + Array("\r\n--B--\r\n".utf8)
        #expect(body == expected)
    }

    @Test func aBoundaryFoundInAValueIsDrawnAgain() {
        var form = MultipartForm()
        form.addText("description", "a line with --first inside")
        var drawn = ["first", "second"]
        let (body, type) = form.encoded { drawn.removeFirst() }
        #expect(type.hasSuffix("boundary=second"))
        #expect(String(decoding: body, as: UTF8.self).hasPrefix("--second\r\n"))
    }

    @Test func randomBoundariesAreLongAndDiffer() {
        let boundaries = Set((0 ..< 100).map { _ in MultipartForm.randomBoundary() })
        #expect(boundaries.count == 100)
        #expect(boundaries.allSatisfy { $0.count == "timeline-".count + 32 })
    }
}
