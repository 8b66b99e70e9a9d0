#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import TimelineKit

/// What `timeline browse` does for `p` beyond the view (``BrowseEffect/showPictures(_:)``):
/// asks the terminal once which pictures it draws (``TerminalGraphicsProbe``), fetches the
/// pictures through the cache (``PictureFetcher``), checks each before anything draws it
/// (``PictureCheck``) and turns it into the terminal's protocol: kitty takes a PNG as it is,
/// iTerm2 any of the four formats; the rest goes through `chafa` (``ChafaDecoder``). A picture
/// that is not drawn gets its reason in one line under it, beside its alt text.
struct BrowsePictureDrawer {
    /// What the terminal draws, once asked.
    private(set) var graphics: TerminalGraphics?
    /// Whether kitty pictures are on the screen, to be deleted when the screen closes.
    private(set) var kittyPicturesShown = false

    /// Asks the terminal, the first time only; answers the bytes read that were keys.
    mutating func detect() -> [UInt8] {
        guard graphics == nil else { return [] }
        let probe = TerminalGraphicsProbe.run()
        graphics = probe.graphics
        return probe.keys
    }

    /// The pictures fetched (or taken from the cache) and checked: each item's problem set when
    /// it cannot be drawn, and the files of those that can, by index.
    func fetch(_ pictures: BrowsePictures) -> (pictures: BrowsePictures, files: [Int: [UInt8]]) {
        var checked = pictures
        let cache = PictureCache.standardDirectory(environment: Terminal.environment).map { PictureCache(directory: $0) }
        let fetcher = PictureFetcher(transport: CurlTransport(), cache: cache)
        let urls = pictures.items.map(\.url)
        // The pictures are fetched side by side: four slow servers cost one time limit, not four.
        let results = waitFor { () async throws(Never) -> [Int: Result<[UInt8], PictureFetcher.Failure>] in
            await withTaskGroup(of: (Int, Result<[UInt8], PictureFetcher.Failure>).self) { group in
                for (index, url) in urls.enumerated() {
                    guard let url else { continue }
                    group.addTask {
                        do throws(PictureFetcher.Failure) {
                            return (index, .success(try await fetcher.picture(at: url).bytes))
                        } catch {
                            return (index, .failure(error))
                        }
                    }
                }
                var results: [Int: Result<[UInt8], PictureFetcher.Failure>] = [:]
                for await (index, result) in group { results[index] = result }
                return results
            }
        }
        var files: [Int: [UInt8]] = [:]
        for index in pictures.items.indices {
            switch results[index] {
            case nil:
                checked.items[index].problem = "not fetched: the server gave no address for it"
            case let .failure(failure)?:
                checked.items[index].problem = failure.description
            case let .success(bytes)?:
                do throws(PictureCheck.Refusal) {
                    _ = try PictureCheck.check(bytes)
                    files[index] = bytes
                } catch {
                    checked.items[index].problem = error.description
                }
            }
        }
        return (checked, files)
    }

    /// The bytes that draw each file in its rectangle of `layout` (the cursor moved there
    /// first), and `pictures` with the reason of each that cannot be drawn here.
    func encode(_ files: [Int: [UInt8]], layout: BrowsePictureLayout, pictures: inout BrowsePictures) -> [UInt8] {
        guard let graphics, graphics != .none else { return [] }
        var output: [UInt8] = []
        for (index, file) in files.sorted(by: { $0.key < $1.key }) {
            guard layout.tiles.indices.contains(index), let rect = layout.tiles[index].picture else {
                pictures.items[index].problem = "not drawn: the window is too small"
                continue
            }
            let drawing: [UInt8]
            do throws(ChafaDecoder.Failure) {
                drawing = try Self.drawing(of: file, graphics: graphics, in: rect)
            } catch {
                pictures.items[index].problem = error.description
                continue
            }
            output += Array("\u{1b}[\(rect.row + 1);\(rect.column + 1)H".utf8) + drawing
        }
        return output
    }

    /// The protocol's bytes for one checked file.
    private static func drawing(of file: [UInt8], graphics: TerminalGraphics,
                                in rect: BrowsePictureLayout.CellRect) throws(ChafaDecoder.Failure) -> [UInt8] {
        if graphics == .kitty, PictureFormat.sniff(file) == .png {
            return TerminalPictureEncoding.kitty(png: file, columns: rect.columns, rows: rect.rows)
        }
        if graphics == .iTerm2 {
            return TerminalPictureEncoding.iTerm2(file: file, columns: rect.columns, rows: rect.rows)
        }
        // chafa reads a file: a private copy of the bytes just checked, removed after (the
        // cached file could be replaced between the check and chafa's read).
        let temporary = try? PrivateTemporaryFile(prefix: "timeline-picture-", name: "picture", contents: file)
        defer { temporary?.remove() }
        guard let path = temporary?.path else { throw .failed("could not be given the picture (no temporary file)") }
        return try ChafaDecoder.decode(path: path, graphics: graphics, columns: rect.columns, rows: rect.rows)
    }

    /// Writes what `encode` made; kitty's pictures are remembered, to be deleted.
    mutating func draw(_ output: [UInt8]) {
        guard !output.isEmpty else { return }
        if graphics == .kitty { kittyPicturesShown = true }
        Terminal.emit(bytes: output)
    }

    /// Takes the pictures off the screen as it closes: kitty's are deleted (the others are
    /// cleared with the screen, which the caller repaints).
    mutating func takeOff() {
        if kittyPicturesShown { Terminal.emit(bytes: TerminalPictureEncoding.kittyDeleteAll) }
        kittyPicturesShown = false
    }
}
