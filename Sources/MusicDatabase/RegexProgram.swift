/// A compiled regular expression and its matcher: a Thompson NFA run as a Pike VM (Russ Cox,
/// "Regular Expression Matching: the Virtual Machine Approach"), every thread advanced in
/// lock step over the value's bytes. A match costs at most (value length + 1) × (program
/// length) steps whatever the pattern — `(a*)*b` on a megabyte of "a" is linear — where a
/// backtracking engine (PCRE, Swift's `Regex`) can take exponential time.
///
/// Only whether the pattern occurs anywhere in the value is computed (an unanchored search, as
/// `pcre2_match` does): no captures, so lazy and greedy quantifiers are the same.
struct RegexProgram: Sendable {
    enum Instruction: Sendable {
        case bytes(ByteSet)
        case split(Int, Int)
        case jump(Int)
        case assertion(RegexAssertion)
        case match
    }

    let instructions: [Instruction]

    init(pattern: String, caseless: Bool) throws(RegexError) {
        let node = try RegexParser.parse(pattern, caseless: caseless)
        var compiler = Compiler()
        try compiler.emit(node)
        compiler.append(.match)
        instructions = compiler.program
    }

    private struct Compiler {
        var program: [Instruction] = []

        mutating func append(_ instruction: Instruction) {
            program.append(instruction)
        }

        mutating func emit(_ node: RegexNode) throws(RegexError) {
            guard program.count <= RegexLimits.instructions else {
                throw RegexError(offset: 0, reason: "pattern too complex (over \(RegexLimits.instructions) steps)")
            }
            switch node {
            case .bytes(let set):
                append(.bytes(set))
            case .assertion(let assertion):
                append(.assertion(assertion))
            case .concatenation(let items):
                for item in items { try emit(item) }
            case .alternation(let branches):
                // split L1, next; L1: branch; jump end; next: split L2, … ; last branch
                var jumps: [Int] = []
                for (index, branch) in branches.enumerated() {
                    if index < branches.count - 1 {
                        let split = program.count
                        append(.split(split + 1, 0))
                        try emit(branch)
                        jumps.append(program.count)
                        append(.jump(0))
                        program[split] = .split(split + 1, program.count)
                    } else {
                        try emit(branch)
                    }
                }
                for jump in jumps { program[jump] = .jump(program.count) }
            case .repetition(let body, let minimum, let maximum):
                for _ in 0..<minimum { try emit(body) }
                if let maximum {
                    // Each optional copy: split body, end.
                    var splits: [Int] = []
                    for _ in minimum..<maximum {
                        splits.append(program.count)
                        append(.split(program.count + 1, 0))
                        try emit(body)
                    }
                    for split in splits { program[split] = .split(split + 1, program.count) }
                } else {
                    let loop = program.count
                    append(.split(loop + 1, 0))
                    try emit(body)
                    append(.jump(loop))
                    program[loop] = .split(loop + 1, program.count)
                }
            }
            guard program.count <= RegexLimits.instructions else {
                throw RegexError(offset: 0, reason: "pattern too complex (over \(RegexLimits.instructions) steps)")
            }
        }
    }

    /// Whether the pattern occurs anywhere in `value`.
    func matches(_ value: some Collection<UInt8>) -> Bool {
        var matcher = RegexMatcher(self)
        return ContiguousArray(value).withUnsafeBufferPointer { matcher.matches($0) }
    }

    /// The thread lists of one search: sparse sets of instruction indices (Briggs & Torczon),
    /// so adding, testing and clearing are O(1) and each instruction runs once per byte.
    struct Machine {
        var current: SparseSet
        var next: SparseSet
        var stack: [Int] = []

        init(count: Int) {
            current = SparseSet(capacity: count)
            next = SparseSet(capacity: count)
        }

        mutating func run(_ program: [Instruction], on input: UnsafeBufferPointer<UInt8>) -> Bool {
            var position = 0
            while true {
                // Unanchored: a new thread may start at every position.
                if Self.add(0, to: &current, &stack, program, input, position) { return true }
                guard position < input.count else { return false }
                let byte = input[position]
                next.removeAll()
                for index in 0..<current.count {
                    let pc = current.dense[index]
                    if case .bytes(let set) = program[pc], set.contains(byte) {
                        if Self.add(pc + 1, to: &next, &stack, program, input, position + 1) { return true }
                    }
                }
                swap(&current, &next)
                position += 1
            }
        }

        /// Adds the thread at `start` and every one reached from it without reading a byte;
        /// true when one of them is a match.
        static func add(_ start: Int, to list: inout SparseSet, _ stack: inout [Int], _ program: [Instruction],
                          _ input: UnsafeBufferPointer<UInt8>, _ position: Int) -> Bool {
            stack.removeAll(keepingCapacity: true)
            stack.append(start)
            while let pc = stack.popLast() {
                guard list.insert(pc) else { continue }
                switch program[pc] {
                case .match: return true
                case .bytes: break
                case .jump(let target): stack.append(target)
                case .split(let first, let second):
                    stack.append(second)
                    stack.append(first)
                case .assertion(let assertion):
                    if Self.holds(assertion, input, position) { stack.append(pc + 1) }
                }
            }
            return false
        }

        static func holds(_ assertion: RegexAssertion, _ input: UnsafeBufferPointer<UInt8>, _ position: Int) -> Bool {
            switch assertion {
            case .start: return position == 0
            case .end: return position == input.count
            case .endOrFinalNewline:
                return position == input.count || (position == input.count - 1 && input[position] == 10)
            case .wordBoundary, .notWordBoundary:
                let before = position > 0 && ByteSet.word.contains(input[position - 1])
                let after = position < input.count && ByteSet.word.contains(input[position])
                return (before != after) == (assertion == .wordBoundary)
            }
        }
    }
}

/// A set of small integers with O(1) insert, lookup and clear, and its members in insertion
/// order (`dense`).
struct SparseSet {
    private(set) var dense: [Int]
    private var sparse: [Int]
    private(set) var count = 0

    init(capacity: Int) {
        dense = Array(repeating: 0, count: capacity)
        sparse = Array(repeating: 0, count: capacity)
    }

    /// Inserts `value`; false when it was already there.
    mutating func insert(_ value: Int) -> Bool {
        let slot = sparse[value]
        if slot < count && dense[slot] == value { return false }
        sparse[value] = count
        dense[count] = value
        count += 1
        return true
    }

    mutating func removeAll() { count = 0 }
}

/// A program with its thread lists, kept for the many values one query tests (no allocation
/// per value).
struct RegexMatcher {
    let program: RegexProgram
    private var machine: RegexProgram.Machine

    init(_ program: RegexProgram) {
        self.program = program
        machine = RegexProgram.Machine(count: program.instructions.count)
    }

    mutating func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        machine.current.removeAll()
        return machine.run(program.instructions, on: value)
    }
}
