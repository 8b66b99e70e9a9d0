import Foundation
import TimelineKit

/// 16. What the person's own rules cost a message (issue 34), in process: the muted-word
/// matcher compiled from 10 and from 10,000 words, the verdict of one ordinary post under each,
/// of a hostile post (100 KB of `a` against `(a+)+$` and 300 nested words), and of a labelled post
/// whose person subscribes to 1,000 labelers. A verdict under 10,000 words should cost what one
/// under 10 does (the words are compiled once, the post read once): the rows say how close.
/// Then what muting one more word costs a stored timeline: `updateModerationRules` on a copy of
/// the 10k and 1M data sets, which must read every stored message again (a word can be in any),
/// each run a word found in none (`absentab`, …), so that every run does the whole work and changes
/// nothing. The words are ASCII: a word beyond ASCII reads every message (24 s at 1M, measured
/// by hand in docs/benchmarks.md), too long for this suite.
func stageMutedWords(_ config: Config, _ data: DataSets, _ report: Report) throws {
    report.begin("16. Muted words and labels: the verdict of one message (in process)")
    let n = config.iterations
    let now = Date(timeIntervalSince1970: 1_800_000_000)
    func words(_ count: Int) -> [MutedWord] {
        (0..<count).map { index in
            index % 10 == 0 ? MutedWord(value: "muted phrase \(index)") : MutedWord(value: "word\(index)", wholeWord: index % 3 != 0)
        }
    }
    let post = Message(id: "p", authorID: "a", text: """
        Reading the atproto specs over coffee this morning: labels, labelers and the way a client \
        decides what to show. #atproto #moderation https://example.com/a-long-path
        """, createdAt: now, contentWarning: "long post")
    var verdicts: [Int: Double] = [:]
    for count in [10, 10_000] {
        let list = words(count)
        let compile = timeInProcess(iterations: max(3, n / 30)) { _ = MutedWordMatcher(list) }
        report.time("mutedwords.compile.\(count)", "compile \(count) words", compile)
        let rules = ModerationRules(mutedWords: list)
        _ = rules.verdict(for: post, facts: .none, now: now)  // compiled at the first verdict
        let verdict = timeInProcess(iterations: n * 10) {
            precondition(rules.verdict(for: post, facts: .none, now: now) == .shown)
        }
        verdicts[count] = verdict.median
        report.time("mutedwords.verdict.\(count)", "verdict of an ordinary post, \(count) words", verdict)
    }
    report.ratio("mutedwords.verdict.ratio", "10,000 words / 10 words", verdicts[10_000]! / verdicts[10]!)

    let hostile = Message(id: "h", authorID: "a", text: String(repeating: "a", count: 100_000), createdAt: now)
    var bombs = words(10_000)
    bombs.append(MutedWord(value: "(a+)+$", wholeWord: false))
    bombs += (1...300).map { MutedWord(value: String(repeating: "a", count: $0) + "b", wholeWord: false) }
    let bombRules = ModerationRules(mutedWords: bombs)
    _ = bombRules.verdict(for: hostile, facts: .none, now: now)
    report.time("mutedwords.hostile", "100 KB of a, 10,301 words with (a+)+$ and a…ab",
                timeInProcess(iterations: max(3, n / 10)) { precondition(bombRules.verdict(for: hostile, facts: .none, now: now) == .shown) })

    let labelers = (0..<1_000).map { "did:plc:labeler\($0)" }
    let choices = labelers.flatMap { labeler in ["spoilers", "rude", "nudity"].map { LabelChoice(labeler: labeler, label: $0, visibility: .warn) } }
    let labelled = ModerationRules(labels: LabelPreferences(adultContentEnabled: true, choices: choices, labelers: Set(labelers), isRead: true))
    let facts = ModerationFacts(labels: (0..<64).map { ContentLabel(source: labelers[$0 * 15], value: $0 % 2 == 0 ? "spoilers" : "sexual") })
    _ = labelled.verdict(for: post, facts: facts, now: now)
    report.time("labels.verdict.1000", "64 labels, 1,000 labelers and 3,000 choices",
                timeInProcess(iterations: n * 10) { _ = labelled.verdict(for: post, facts: facts, now: now) })

    for size in [config.small, config.large] {
        let copy = try data.workCopy(messages: size, name: "mutedwords-\(size)")
        let store = try TimelineStore(path: copy)
        var run = 0
        // Common letters, so that SQLite's narrowing by letters in order lets many texts through.
        let letters = Array("abcdefghijklmnopqrstuvwxyz")
        let redecide = try timeInProcess(iterations: size >= 1_000_000 ? 3 : min(20, max(3, n / 5)), warmup: 1) {
            let word = "absent" + String(letters[run % letters.count]) + String(letters[run / letters.count % letters.count])
            run += 1
            let change = try store.updateModerationRules(account: "bench") { $0.mutedWords.append(MutedWord(value: word)) }
            guard change == ModerationChange(rulesChanged: true) else { throw BenchError("a word found in no message changed \(change)") }
        }
        report.time("mutedwords.redecide.\(size)", "one more muted word, every stored message decided again, \(fmtCount(Double(size))) messages", redecide,
                    note: String(format: "%.2f µs a message", redecide.median * 1e3 / Double(size)))
    }
    report.end()
}
