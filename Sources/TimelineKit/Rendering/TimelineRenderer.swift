#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// Turns a timeline page into terminal lines, one `RenderedEntry` per message.
///
/// Each entry looks like this (80 columns, colour off; `●` marks an unread message):
///
/// ```
/// ● ⟲ Rosalind Achterberg 🍞 reposted · 5m
///   Mika Lindqvist @mika · 2h · edited
///   ↩ reply to @kenji_t
///   CW: food, sourdough
///   [text hidden: 212 characters]
///   📎 image: "a loaf on a cooling rack, cut open"
///   📎 1 image (no description)
///   ❝ @linwei: the quoted text on one line, cut to the width with an ellipsis…
///   ↩ 4  ⟲ 12  ♥ 1.2k
/// ```
///
/// - The first column holds the unread marker (or a space); everything else starts at column 3.
/// - A repost starts with `⟲ <name> reposted · <when reposted>`, then shows the original
///   message, or `(original not available)` when the page does not hold it.
/// - The header is the display name, `@handle`, `[bot]` for automated accounts, the message's
///   age (`RelativeTime`), the message's short reference (``ShortReference``, what the
///   commands take: `· bkd`) when it was read from a store and name and handle fit whole
///   beside it, and `edited` when it was. When it does not fit, `edited` goes first,
///   then `[bot]`; then name and handle are cut with `…`, the handle keeping at least half the
///   room, since it is what identifies the author. The age is always shown. In a page that
///   mixes networks (Bluesky posts beside Mastodon statuses or imported messages), each entry
///   then says where it came from: `· 🦋` for Bluesky, `· 🐘` for a Mastodon server (`bsky`,
///   `masto` in ASCII); a timeline of one network is not marked.
/// - Text is wrapped (`TextWrapper`) two columns in, like everything under the header, and to
///   the full width on the right. Tabs in it expand to 4-column stops. Blank lines at its start
///   and end are dropped, and runs of blank lines shown as one, so a message cannot push the
///   rest of the timeline away with empty lines.
/// - Text behind a content warning is not shown unless `RenderOptions.revealsContentWarnings`:
///   the warning is, followed by `[text hidden: N characters]`. Someone reading the timeline at
///   a shell prompt cannot click to reveal, and dimmed text would still be read.
/// - Each attachment with a description (alt text) has a line saying it; those without are
///   counted on one line.
/// - A quote is one line: the quoted author's handle and text, or its content warning (never
///   the text behind it).
/// - The footer shows reply, repost and like counts that are not zero, compacted (`1.2k`).
///
/// Every string from a message or user passes through `TerminalText` first. Every line is at
/// most `RenderOptions.width` columns (at least `RenderOptions.minimumWidth`), and with colour
/// off no line holds an escape character. Entries are separated by one empty line that is part
/// of neither entry.
///
/// What a paint costs is bounded by the screen, not by the data: a name, handle or quote is laid
/// out from at most the bytes a line can show (16 a column: real text needs at most a few, and
/// beyond that only marks and invisible characters pile up), and when rendering to fit rows, a
/// text or content warning from at most the bytes and lines those rows can show; what is left
/// out ends the part it was cut from with `…`. Measuring and wrapping take linear time in what
/// they are given, whatever Unicode it holds.
public struct TimelineRenderer: Sendable {
    /// The layout's settings.
    public let options: RenderOptions

    /// A renderer laying out pages as `options` say.
    public init(options: RenderOptions = RenderOptions()) {
        self.options = options
    }

    /// The fewest lines an entry taller than the screen is cut to: on a screen of a few rows, a
    /// header and a line or two of text would say too little, and the terminal scrolls instead.
    public static let shortestCut = 8

    /// One entry per message of `page`, in page order, with ages measured from `now`.
    public func render(_ page: TimelinePage, now: Date) -> [RenderedEntry] {
        render(page, now: now, highlighting: nil)
    }

    /// One entry per message of `page`, with where `query` matches each message's text shown in
    /// reverse video when `options.color` is on (and nothing different when it is off). The
    /// matches are looked for in the text as shown, after neutralising: a highlight never
    /// splits an escape sequence or a character, and ranges need no mapping.
    public func render(_ page: TimelinePage, now: Date, highlighting query: SearchQuery?) -> [RenderedEntry] {
        var context = Context(page: page, time: RelativeTime(now: now), width: max(options.width, RenderOptions.minimumWidth))
        if options.color { context.highlight = query }
        return page.messages.map { entry(for: $0, in: context) }
    }

    /// The entries of the messages of `page` in `range` only, laid out as in a rendering of the
    /// whole page (the network marks are the page's): for `BrowseView`, which renders entries as
    /// they come into sight rather than a whole page it may never scroll through.
    func render(_ page: TimelinePage, range: Range<Int>, now: Date, highlighting query: SearchQuery?) -> [RenderedEntry] {
        var context = Context(page: page, time: RelativeTime(now: now), width: max(options.width, RenderOptions.minimumWidth))
        if options.color { context.highlight = query }
        return page.messages[range].map { entry(for: $0, in: context) }
    }

    /// The first entries of `page` that fit in `rows` terminal rows together with the empty lines
    /// between them (see `rowCount(of:)`), and always at least the first, cut to `rows` lines
    /// when it is taller (to `shortestCut` on a shorter screen), its last line ending in `…`.
    /// Messages after those are not rendered at all: a screenful is a few entries of a page of
    /// hundreds, and of an entry only what the rows can show is laid out.
    public func render(_ page: TimelinePage, now: Date, fittingRows rows: Int) -> [RenderedEntry] {
        var context = Context(page: page, time: RelativeTime(now: now), width: max(options.width, RenderOptions.minimumWidth))
        var shown: [RenderedEntry] = []
        var used = 0
        for message in page.messages {
            // The first entry is cut to the rows; of any other, one line more than is left tells
            // that it does not fit.
            context.maximumLines = shown.isEmpty ? max(rows, Self.shortestCut) : max(rows - used, 1)
            let entry = entry(for: message, in: context)
            let needed = entry.lines.count + (shown.isEmpty ? 0 : 1)
            if !shown.isEmpty && used + needed > rows { break }
            shown.append(entry)
            used += needed
            if used >= rows { break }
        }
        return shown
    }

    /// The whole page as text to write: entries separated by an empty line, every line ended
    /// by a line feed. An empty page gives an empty string.
    public func renderText(_ page: TimelinePage, now: Date) -> String {
        Self.text(of: render(page, now: now))
    }

    /// The text to write for `entries`: separated by an empty line, every line ended by a line
    /// feed.
    public static func text(of entries: [RenderedEntry]) -> String {
        var text = ""
        for (index, entry) in entries.enumerated() {
            if index > 0 { text += "\n" }
            for line in entry.lines {
                text += line
                text += "\n"
            }
        }
        return text
    }

    /// How many terminal rows `text(of: entries)` takes: the entries' lines and the empty lines
    /// between them.
    public static func rowCount(of entries: [RenderedEntry]) -> Int {
        entries.reduce(0) { $0 + $1.lines.count } + max(0, entries.count - 1)
    }

    /// The number of columns a rendered line takes on screen, not counting its SGR sequences.
    public static func displayWidth(ofLine line: String) -> Int {
        guard line.utf8.contains(0x1B) else { return DisplayWidth.of(line) }
        var visible = String.UnicodeScalarView()
        var inSequence = false
        var afterEscape = false
        for scalar in line.unicodeScalars {
            if afterEscape {
                afterEscape = false
                inSequence = scalar == "["
            } else if inSequence {
                inSequence = !(0x40...0x7E).contains(scalar.value)
            } else if scalar == "\u{1b}" {
                afterEscape = true
            } else {
                visible.append(scalar)
            }
        }
        return DisplayWidth.of(String(visible))
    }

    // MARK: - Entries

    /// What every entry of a page needs: its messages and users by ID, each user's name and
    /// handle neutralised once however many of their messages the page holds.
    private struct Context {
        let page: TimelinePage
        /// Indices into `page.messages`, then (offset by its count) into `page.related`.
        let messageIndices: [String: Int]
        /// Indices into `page.users`. Authors are made when an entry needs them: a page carries
        /// the users of all its messages, and `show` renders only what fits the screen, so making
        /// every user's author up front (neutralising and measuring names) was a sixth of a paint.
        let userIndices: [String: Int]
        let time: RelativeTime
        let width: Int
        /// The search whose matches are highlighted in message text.
        var highlight: SearchQuery?
        /// The most lines an entry may have, when rendering to fit rows: it is cut to them.
        var maximumLines: Int?
        /// Whether entries say their network: the page holds Bluesky posts and others.
        let marksNetworks: Bool

        init(page: TimelinePage, time: RelativeTime, width: Int) {
            self.page = page
            var messageIndices = [String: Int](minimumCapacity: page.messages.count + page.related.count)
            // The first message with an ID wins, as in `TimelinePage.messagesByID`.
            for index in page.messages.indices where messageIndices[page.messages[index].id] == nil {
                messageIndices[page.messages[index].id] = index
            }
            for index in page.related.indices where messageIndices[page.related[index].id] == nil {
                messageIndices[page.related[index].id] = page.messages.count + index
            }
            self.messageIndices = messageIndices
            var userIndices = [String: Int](minimumCapacity: page.users.count)
            for index in page.users.indices where userIndices[page.users[index].id] == nil {
                userIndices[page.users[index].id] = index
            }
            self.userIndices = userIndices
            self.time = time
            self.width = width
            // Marked where the page mixes sources; each source paints its own mark, if it has one.
            let first = page.messages.first?.source
            var mixed = false
            for message in page.messages where message.source != first {
                mixed = true
                break
            }
            marksNetworks = mixed
        }

        func message(_ id: String) -> Message? {
            guard let index = messageIndices[id] else { return nil }
            return index < page.messages.count ? page.messages[index] : page.related[index - page.messages.count]
        }

        func author(of message: Message) -> Author {
            author(id: message.authorID) ?? .unknown
        }

        /// What the person's accounts did to message `id`: a page carries few, most none.
        func interaction(of id: String) -> MessageInteraction? {
            page.interactions.isEmpty ? nil : page.interaction(of: id)
        }

        func author(id: String) -> Author? {
            userIndices[id].map { Author(page.users[$0], width: width) }
        }
    }

    /// A user as the timeline shows them.
    private struct Author {
        /// The display name, or `@handle` when the name is empty, or a placeholder.
        var name: String
        var nameWidth: Int
        /// `@handle`, unless it is shown as the name or is empty.
        var handle: String?
        var handleWidth: Int
        /// The handle without `@`, empty when unknown.
        var bareHandle: String
        var isBot: Bool

        static let unknown = Author(name: "(unknown user)", handle: nil, bareHandle: "", isBot: false)

        init(name: String, handle: String?, bareHandle: String, isBot: Bool) {
            self.name = name
            self.nameWidth = DisplayWidth.of(name)
            self.handle = handle
            self.handleWidth = handle.map { DisplayWidth.of($0) } ?? 0
            self.bareHandle = bareHandle
            self.isBot = isBot
        }

        /// The author `user` is, laid out from no more of their name and handle than a line of
        /// `width` columns can show.
        init(_ user: User, width: Int) {
            let name = TimelineRenderer.neutralisedLine(user.name, cells: width)
            let handle = TimelineRenderer.neutralisedLine(user.handle, cells: width)
            if handle.isEmpty {
                self.init(name: name.isEmpty ? "(unknown user)" : name, handle: nil, bareHandle: "", isBot: user.isBot)
            } else if name.isEmpty {
                self.init(name: "@" + handle, handle: nil, bareHandle: handle, isBot: user.isBot)
            } else {
                self.init(name: name, handle: "@" + handle, bareHandle: handle, isBot: user.isBot)
            }
        }
    }

    private static let indent = "  "

    private func entry(for message: Message, in context: Context) -> RenderedEntry {
        var lines: [StyledLine] = []
        lines.reserveCapacity(8)
        var gutter = StyledLine()
        if options.showsUnreadMarker && !message.isRead {
            gutter.append(options.symbols.unread, .accent, width: DisplayWidth.of(options.symbols.unread))
            gutter.append(" ", width: 1)
        } else {
            gutter.append(Self.indent, width: 2)
        }

        var shown = message
        if let originalID = message.repostOfID {
            lines.append(repostLine(for: message, gutter: gutter, in: context))
            gutter = StyledLine(Self.indent)
            if let original = context.message(originalID) {
                shown = original
            } else {
                lines.append(detailLine("(original not available)", in: context))
                return finish(lines, id: message.id, in: context)
            }
        }

        lines.append(header(for: shown, gutter: gutter, in: context))
        if let audience = audienceLine(for: shown, in: context) {
            lines.append(audience)
        }
        if let reply = replyLine(for: shown, in: context) {
            lines.append(reply)
        }
        appendText(of: shown, to: &lines, in: context)
        if let blur = shown.moderation.filterMatches.first(where: { $0.action == .blur }), !shown.attachments.isEmpty,
           !options.revealsContentWarnings {
            // A filter of the person's own that blurs media (Mastodon 4.4's `blur`).
            let count = shown.attachments.count
            lines.append(detailLine("\(options.symbols.attachment) \(count) attachment\(count == 1 ? "" : "s") hidden: Filtered: "
                                        + TerminalText.line(blur.title), in: context))
        } else {
            for line in Self.attachmentLines(shown.attachments, cells: context.width, symbol: options.symbols.attachment) {
                lines.append(detailLine(line, in: context))
            }
        }
        if let quotedID = shown.quoteOfID {
            lines.append(quoteLine(for: quotedID, in: context))
        }
        if let footer = footer(for: shown, in: context) {
            lines.append(footer)
        }
        return finish(lines, id: message.id, in: context)
    }

    private func finish(_ lines: [StyledLine], id: String, in context: Context) -> RenderedEntry {
        var lines = lines
        if let maximum = context.maximumLines, lines.count > maximum {
            lines.removeLast(lines.count - maximum)
            lines[maximum - 1] = lines[maximum - 1].ellipsized(to: context.width)
        }
        // Every line is built to fit, but for text that puts a cluster wider than the line in
        // it (see `TextWrapper`): fitting again cuts that, and guards against mistakes.
        return RenderedEntry(messageID: id, lines: lines.map { $0.fitted(to: context.width).rendered(color: options.color) })
    }

    /// Of the bytes a field holds, how many are laid out for each terminal cell it can fill.
    /// Real text takes at most a few a cell (a CJK character 1.5, a flag 4, a family emoji about
    /// 12); beyond that only combining marks and invisible characters pile up, of which a
    /// screen shows nothing more.
    static let bytesPerCell = 16

    /// The start of `text` that `cells` terminal cells can show: all of it when it is at most
    /// `bytesPerCell × cells` bytes, or else that many bytes cut between two scalars; and whether
    /// it was cut. Neutralising, measuring and wrapping that costs what the screen holds.
    static func head(of text: String, cells: Int) -> (text: String, isCut: Bool) {
        // Far beyond any terminal, and no overflow however wide a `--width` is asked for.
        let limit = min(max(cells, 1), 1 << 24) * bytesPerCell
        guard text.utf8.count > limit else { return (text, false) }
        var end = text.utf8.index(text.utf8.startIndex, offsetBy: limit)
        // In bounds: `end` is inside the text; a UTF-8 continuation byte (10xxxxxx) always
        // follows a lead byte, so stepping back stops at the start of a scalar.
        while text.utf8[end] & 0xC0 == 0x80 { end = text.utf8.index(before: end) }
        return (String(text[..<end]), true)
    }

    /// A single-line field neutralised from what a line of `cells` columns can show, ending in
    /// `…` when it was cut.
    static func neutralisedLine(_ text: String, cells: Int) -> String {
        let head = head(of: text, cells: cells)
        let line = TerminalText.line(head.text)
        return head.isCut ? line + "…" : line
    }

    /// `⟲ Alice reposted · 5m`, dim, the name cut to fit (and `reposted` left out when there
    /// is too little room for a name: the symbol says it).
    private func repostLine(for repost: Message, gutter: StyledLine, in context: Context) -> StyledLine {
        let author = context.author(of: repost)
        let age = options.symbols.separator + context.time.string(for: repost.createdAt)
        var suffix = " reposted" + age
        var room = context.width - gutter.width - 2 - DisplayWidth.of(suffix)
        if room < 6 {
            suffix = age
            room = context.width - gutter.width - 2 - DisplayWidth.of(suffix)
        }
        var line = gutter
        line.append(options.symbols.repost + " " + TextWrapper.truncate(author.name, toWidth: max(room, 1)) + suffix, .dim)
        return line
    }

    /// Name, handle, bot marker, age and edit marker, fitted as `TimelineRenderer` describes.
    private func header(for message: Message, gutter: StyledLine, in context: Context) -> StyledLine {
        let author = context.author(of: message)
        let age = options.symbols.separator + context.time.string(for: message.createdAt)
        // Every scalar of these is one column wide.
        let ageWidth = age.unicodeScalars.count
        let botWidth = Self.botMarker.unicodeScalars.count
        let editedWidth = Self.editedMarker.unicodeScalars.count
        let network = context.marksNetworks ? networkMark(for: message) : nil
        let networkWidth = network.map { DisplayWidth.of($0) } ?? 0
        // The short reference the commands take (`timeline thread bkd`).
        let reference = message.shortReference.isNone ? nil : options.symbols.separator + message.shortReference.text
        let referenceWidth = reference.map { DisplayWidth.of($0) } ?? 0
        let available = context.width - gutter.width - ageWidth - networkWidth

        let handleWidth = author.handle == nil ? 0 : 1 + author.handleWidth // with its space
        var showsBot = author.isBot
        var showsEdited = message.editedAt != nil
        var showsReference = reference != nil
        func room() -> Int {
            available - (showsBot ? botWidth : 0) - (showsEdited ? editedWidth : 0) - (showsReference ? referenceWidth : 0)
        }
        // The reference gives way before name or handle is cut at all: who wrote it comes first
        // on a narrow terminal (`--format '{ref}'` and `show --json` still give it). The markers
        // give way before name and handle are cut below a readable 8 columns each.
        if author.nameWidth + handleWidth > room() { showsReference = false }
        let wanted = min(author.nameWidth, 8) + min(handleWidth, 9)
        if room() < wanted { showsEdited = false }
        if room() < wanted { showsBot = false }

        var line = gutter
        let room = max(room(), 1)
        if author.nameWidth + handleWidth <= room {
            line.append(author.name, .bold, width: author.nameWidth)
            if let handle = author.handle {
                line.append(" ", width: 1)
                line.append(handle, .dim, width: author.handleWidth)
            }
        } else {
            var nameRoom = room
            if handleWidth > 0 {
                nameRoom = min(author.nameWidth, max(room / 2, room - handleWidth))
                // A handle cut to less than ` @ab…` identifies nobody: give its room to the name.
                if room - nameRoom < 5 { nameRoom = room }
            }
            line.append(TextWrapper.truncate(author.name, toWidth: nameRoom), .bold)
            if let handle = author.handle, room - nameRoom > 1 {
                line.append(" ", width: 1)
                line.append(TextWrapper.truncate(handle, toWidth: room - nameRoom - 1), .dim)
            }
        }
        if showsBot { line.append(Self.botMarker, .dim, width: botWidth) }
        line.append(age, .dim, width: ageWidth)
        if showsReference, let reference { line.append(reference, .dim, width: referenceWidth) }
        if let network { line.append(network, .dim, width: networkWidth) }
        if showsEdited { line.append(Self.editedMarker, .dim, width: editedWidth) }
        return line
    }

    /// ` · 🦋` or ` · 🐘` (the source's mark) after the age, `nil` for a message whose source
    /// has none.
    private func networkMark(for message: Message) -> String? {
        options.symbols.mark(for: message.source).map { options.symbols.separator + $0 }
    }

    private static let botMarker = " [bot]"
    private static let editedMarker = " · edited"

    /// `✉ direct` or `🔒 followers only` for a message not everyone may see (issue 34: a direct
    /// message was painted like a public post); `nil` for a public, unlisted or unknown one.
    private func audienceLine(for message: Message, in context: Context) -> StyledLine? {
        switch message.visibility {
        case .direct?: detailLine(options.symbols.direct, in: context)
        case .private?: detailLine(options.symbols.followersOnly, in: context)
        case .public?, .unlisted?, nil: nil
        }
    }

    /// `↩ reply to @handle`, naming the author of the message replied to when the page knows
    /// them (from `replyToUserID`, or else from the replied-to message); `nil` for a message that
    /// is not a reply.
    private func replyLine(for message: Message, in context: Context) -> StyledLine? {
        guard message.replyToID != nil || message.replyToUserID != nil else { return nil }
        let userID = message.replyToUserID ?? message.replyToID.flatMap { context.message($0)?.authorID }
        var reply = options.symbols.reply + " reply"
        if let userID, let author = context.author(id: userID), !author.bareHandle.isEmpty {
            reply += " to @" + author.bareHandle
        }
        return detailLine(reply, in: context)
    }

    /// The content warning and the text, or the text alone.
    ///
    /// When rendering to fit rows, only what they can show is laid out: the text and warning are
    /// cut to the bytes of those rows, and wrapped to one line more than the entry has left,
    /// which `finish` cuts off.
    private func appendText(of message: Message, to lines: inout [StyledLine], in context: Context) {
        let cells = context.maximumLines.map { maximum in
            let (cells, overflow) = maximum.multipliedReportingOverflow(by: context.width)
            return overflow ? Int.max : cells
        }
        func linesLeft() -> Int {
            context.maximumLines.map { max($0 - lines.count, 0) + 1 } ?? .max
        }
        // The person's own rules' reason (`Filtered: TITLE`, a label: issue 34), then the
        // author's content warning; either folds the text away until asked for.
        var folded = false
        for (label, rawWarning) in [("", message.warning ?? ""), ("CW:", message.contentWarning ?? "")] {
            let warning = cells.map { Self.neutralisedLine(rawWarning, cells: $0) } ?? TerminalText.line(rawWarning)
            guard !warning.isEmpty else { continue }
            folded = true
            let prefix = Self.indent + (label.isEmpty ? "" : label + " ")
            let wrapper = TextWrapper(width: context.width, initialIndent: prefix, subsequentIndent: "      ")
            for (index, wrapped) in wrapper.wrappedLines(warning, maximumLines: linesLeft()).enumerated() {
                var line = StyledLine()
                if index == 0 {
                    line.append(Self.indent, width: 2)
                    if label.isEmpty {
                        line.append(String(wrapped.text.dropFirst(prefix.count)), .warning)
                    } else {
                        line.append(label, .warning, width: label.count)
                        line.append(String(wrapped.text.dropFirst(prefix.count - 1)))
                    }
                } else {
                    line.append(wrapped.text, width: wrapped.width)
                }
                lines.append(line)
            }
        }
        if folded {
            guard options.revealsContentWarnings else {
                // The count is of the whole text, the one thing here that reads all of it.
                let count = TerminalText.body(message.text).count
                if count > 0 {
                    lines.append(detailLine("[text hidden: \(count) character\(count == 1 ? "" : "s")]", in: context))
                }
                return
            }
        }

        let head = cells.map { Self.head(of: message.text, cells: $0) } ?? (text: message.text, isCut: false)
        let text = TerminalText.body(head.text)
        let wrapper = TextWrapper(width: context.width, initialIndent: Self.indent, subsequentIndent: Self.indent)
        var pendingBlank = false
        var hasText = false
        var matches = context.highlight?.matchRanges(in: text) ?? []
        // Where the current line's text starts in `text`: the lines give the text back (see
        // `TextWrapper.Line`), which places each match on its lines.
        var position = text.startIndex
        let textStart = lines.count
        for wrapped in wrapper.wrappedLines(text, maximumLines: linesLeft()) {
            var lineText: Range<String.Index>?
            if !matches.isEmpty {
                let content = wrapped.text.utf8.dropFirst(Self.indent.utf8.count)
                if let end = text.utf8.index(position, offsetBy: content.count, limitedBy: text.endIndex),
                   text.utf8[position..<end].elementsEqual(content) {
                    lineText = position..<end
                    let next = text.utf8.index(end, offsetBy: wrapped.removed.utf8.count + (wrapped.endsParagraph ? 1 : 0), limitedBy: text.endIndex)
                    position = next ?? text.endIndex
                } else {
                    matches = []  // never expected; showing the text plain is the safe answer
                }
            }
            if wrapped.width <= Self.indent.utf8.count {
                pendingBlank = hasText
                continue
            }
            if pendingBlank { lines.append(StyledLine()) }
            pendingBlank = false
            hasText = true
            var line = StyledLine()
            if let lineText, !matches.isEmpty {
                line.append(Self.indent, width: Self.indent.utf8.count)
                Self.appendHighlighted(text, lineText, matches: matches, to: &line)
            } else {
                line.append(wrapped.text, width: wrapped.width)
            }
            lines.append(line)
        }
        // Text the wrapper stopped before makes the entry too tall, and `finish` cuts it; text
        // cut before wrapping may not.
        if head.isCut && lines.count > textStart {
            lines[lines.count - 1] = lines[lines.count - 1].ellipsized(to: context.width)
        }
    }

    /// Appends `text[range]`, the parts inside `matches` in the match style.
    private static func appendHighlighted(_ text: String, _ range: Range<String.Index>, matches: [Range<String.Index>], to line: inout StyledLine) {
        var cursor = range.lowerBound
        for match in matches where match.upperBound > range.lowerBound && match.lowerBound < range.upperBound {
            let start = max(match.lowerBound, range.lowerBound)
            let end = min(match.upperBound, range.upperBound)
            if cursor < start { line.append(String(text[cursor..<start])) }
            line.append(String(text[start..<end]), .match)
            cursor = end
        }
        if cursor < range.upperBound { line.append(String(text[cursor..<range.upperBound])) }
    }

    /// `❝ @handle: the quoted text on one line…`, dim.
    private func quoteLine(for quotedID: String, in context: Context) -> StyledLine {
        guard let quoted = context.message(quotedID) else {
            return detailLine(options.symbols.quote + " (quoted message not available)", in: context)
        }
        let author = context.author(of: quoted)
        var quote = options.symbols.quote + " " + (author.handle ?? author.name)
        let warning = Self.neutralisedLine(quoted.contentWarning ?? "", cells: context.width)
        let text = warning.isEmpty ? Self.neutralisedLine(quoted.text, cells: context.width) : "CW: " + warning
        if !text.isEmpty { quote += ": " + text }
        return detailLine(quote, in: context)
    }

    /// `↩ 4  ⟲ 12  ♥ 1.2k`, dim, leaving out counts that are zero; `nil` when all are.
    /// When that is too wide, it closes up to `↩4 ⟲12 ♥1.2k`.
    private func footer(for message: Message, in context: Context) -> StyledLine? {
        var spacious = ""
        var compact = ""
        func add(_ symbol: String, _ count: Int) {
            guard count > 0 else { return }
            let number = CompactCount.string(count)
            if !spacious.isEmpty {
                spacious += "  "
                compact += " "
            }
            spacious += symbol + " " + number
            compact += symbol + number
        }
        add(options.symbols.replies, message.replyCount)
        add(options.symbols.reposts, message.repostCount)
        add(options.symbols.likes, message.likeCount)
        // What the person did to it, after the counts (`♥ 13 · ♥ favourited`): shown even when
        // the counts are not, as a server that keeps them private sends zeros.
        var yours: [String] = []
        if let interaction = context.interaction(of: message.id) {
            if interaction.favourited { yours.append(options.symbols.favourited) }
            if interaction.boosted { yours.append(options.symbols.boosted) }
            if interaction.bookmarked { yours.append(options.symbols.bookmarked) }
            // An action waiting for its server (offline): said, so the marks are not taken as done.
            if interaction.pending { yours.append(options.symbols.pending) }
        }
        guard !spacious.isEmpty || !yours.isEmpty else { return nil }
        // Symbols, digits, letters and spaces: one column per scalar.
        let fits = Self.indent.utf8.count + spacious.unicodeScalars.count <= context.width
        var text = fits ? spacious : compact
        if !yours.isEmpty {
            text += (text.isEmpty ? "" : options.symbols.separator) + yours.joined(separator: "  ")
        }
        return detailLine(text, in: context)
    }

    /// A dim line of details under the header, indented and cut to the width.
    private func detailLine(_ text: String, in context: Context) -> StyledLine {
        var line = StyledLine(Self.indent)
        line.append(text, .dim)
        return line.fitted(to: context.width)
    }

    /// The attachments' lines: each one with a description (alt text) on a line of its own, what
    /// it shows said in words (`📎 image: "a cat on a bookshelf"`, cut to the line), since that
    /// is all a terminal can show of it; those without one counted together on one more line
    /// (`📎 2 images (no descriptions)`).
    static func attachmentLines(_ attachments: [Attachment], cells: Int, symbol: String = RenderSymbols.unicode.attachment) -> [String] {
        var lines: [String] = []
        var undescribed: [Attachment] = []
        for attachment in attachments {
            if isDescribed(attachment) {
                let description = neutralisedLine(attachment.altText ?? "", cells: cells)
                lines.append("\(symbol) \(noun(forKind: attachment.kind).singular): \"\(description)\"")
            } else {
                undescribed.append(attachment)
            }
        }
        if !undescribed.isEmpty { lines.append(symbol + " " + attachmentSummary(undescribed)) }
        return lines
    }

    /// Whether an attachment has a description worth showing: something visible is left once
    /// it is neutralised (a zero-width space is no description).
    static func isDescribed(_ attachment: Attachment) -> Bool {
        !TerminalText.line(attachment.altText ?? "").allSatisfy(\.isWhitespace)
    }

    /// How an attachment's kind is said: Mastodon's `image`, `video`, `gifv`, `audio`; anything
    /// else (a kind this version does not know, or one a server made up) is an "attachment".
    private static func noun(forKind kind: String) -> (singular: String, plural: String) {
        switch kind {
        case "image": ("image", "images")
        case "video": ("video", "videos")
        case "gifv": ("GIF", "GIFs")
        case "audio": ("audio file", "audio files")
        default: ("attachment", "attachments")
        }
    }

    /// `2 images (1 without description)`, `video`, `3 attachments (no descriptions)`.
    static func attachmentSummary(_ attachments: [Attachment]) -> String {
        let first = attachments.first?.kind ?? ""
        let kind = attachments.allSatisfy { $0.kind == first } ? first : ""
        let noun = noun(forKind: kind)
        let count = attachments.count
        var summary = count == 1 ? "1 " + noun.singular : "\(count) " + noun.plural
        let undescribed = attachments.count { !isDescribed($0) }
        if undescribed == count {
            summary += count == 1 ? " (no description)" : " (no descriptions)"
        } else if undescribed > 0 {
            summary += " (\(undescribed) without description)"
        }
        return summary
    }
}
