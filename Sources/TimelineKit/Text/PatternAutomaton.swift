/// Many literal patterns found in one pass over a text (Aho and Corasick, "Efficient string
/// matching", CACM 18(6), 1975): what keeps 10,000 muted words as cheap per message as ten
/// (issue 34). A pattern is a sequence of symbols: Unicode scalars for words matched anywhere,
/// token numbers for words matched whole (``WordTokens``).
///
/// Built once from the patterns; a search costs one step per symbol of the text (amortised: each
/// failure link taken was paid for by a step forward) plus one visit per pattern found. Each
/// terminal state is reported at most once per search (`seen`): a state already reported had its
/// whole chain of shorter patterns reported with it, so the walk stops there, and a text of
/// `aaaa…` against the patterns `a`, `aa`, `aaa`, … costs its length plus the number of patterns,
/// not their product. Patterns are literal: nothing in them is an operator, so `(a+)+$` is six
/// symbols like any other.
struct PatternAutomaton: Sendable {
    /// `state << 32 | symbol` → the next state. State 0 is the start.
    private var transitions: [UInt64: Int32] = [:]
    /// The longest proper suffix of each state's path that is also a path (its failure link).
    private var failure: [Int32] = [0]
    /// The nearest state along the failure links that ends patterns, or -1.
    private var nextTerminal: [Int32] = [-1]
    /// The patterns each terminal state ends, by their index in the list built from.
    private var ending: [Int32: [Int32]] = [:]
    /// Whether each state ends a pattern (`ending` without a hash lookup per symbol).
    private var isTerminal: [Bool] = [false]

    /// Whether no pattern was given (empty patterns are left out).
    var isEmpty: Bool { ending.isEmpty }

    /// The automaton of `patterns`; the index of a pattern in the list is what a search reports.
    init(_ patterns: [[UInt32]]) {
        var children: [[(symbol: UInt32, state: Int32)]] = [[]]
        for (index, pattern) in patterns.enumerated() where !pattern.isEmpty {
            var state: Int32 = 0
            for symbol in pattern {
                if let next = transitions[Self.key(state, symbol)] {
                    state = next
                } else {
                    let next = Int32(children.count)
                    children.append([])
                    transitions[Self.key(state, symbol)] = next
                    children[Int(state)].append((symbol, next))
                    state = next
                }
            }
            ending[state, default: []].append(Int32(index))
        }
        failure = Array(repeating: 0, count: children.count)
        nextTerminal = Array(repeating: -1, count: children.count)
        isTerminal = Array(repeating: false, count: children.count)
        for state in ending.keys { isTerminal[Int(state)] = true }
        // Breadth first, so that a state's failure link is settled before its children's.
        var queue = children[0].map(\.state)
        var head = 0
        while head < queue.count {
            let state = queue[head]
            head += 1
            for (symbol, child) in children[Int(state)] {
                queue.append(child)
                guard state != 0 else { continue }
                var link = failure[Int(state)]
                while true {
                    if let next = transitions[Self.key(link, symbol)] {
                        failure[Int(child)] = next
                        break
                    }
                    if link == 0 { break }
                    link = failure[Int(link)]
                }
                let fallback = failure[Int(child)]
                nextTerminal[Int(child)] = isTerminal[Int(fallback)] ? fallback : nextTerminal[Int(fallback)]
            }
        }
    }

    private static func key(_ state: Int32, _ symbol: UInt32) -> UInt64 {
        UInt64(UInt32(bitPattern: state)) << 32 | UInt64(symbol)
    }

    /// The state after `symbol` from `state`.
    private func step(_ state: Int32, _ symbol: UInt32) -> Int32 {
        var state = state
        while true {
            if let next = transitions[Self.key(state, symbol)] { return next }
            if state == 0 { return 0 }
            state = failure[Int(state)]
        }
    }

    /// Calls `found` with the index of each pattern that occurs in `symbols` and whose end state
    /// is not yet in `seen` (which it adds to), until `found` answers `false`. Returns `false`
    /// when stopped.
    @discardableResult
    func search(_ symbols: some Sequence<UInt32>, seen: inout Set<Int32>, _ found: (Int32) -> Bool) -> Bool {
        guard !isEmpty else { return true }
        var state: Int32 = 0
        for symbol in symbols {
            state = step(state, symbol)
            var terminal = isTerminal[Int(state)] ? state : nextTerminal[Int(state)]
            while terminal >= 0, seen.insert(terminal).inserted {
                for pattern in ending[terminal] ?? [] where !found(pattern) { return false }
                terminal = nextTerminal[Int(terminal)]
            }
        }
        return true
    }

    /// The patterns that are exactly `symbol`, one symbol long.
    func patterns(exactly symbol: UInt32) -> [Int32] {
        transitions[Self.key(0, symbol)].flatMap { ending[$0] } ?? []
    }
}
