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

    /// The program in flat arrays for the matcher's inner loop: an opcode, two operands and,
    /// for a byte step, its set (kept apart so the loop copies no enum payloads).
    struct Flat {
        static let step: UInt8 = 0, split: UInt8 = 1, jump: UInt8 = 2, assertion: UInt8 = 3, match: UInt8 = 4

        var opcodes: [UInt8] = []
        var first: [Int32] = []
        var second: [Int32] = []
        var sets: [ByteSet] = []
        var assertions: [RegexAssertion] = []

        init(_ instructions: [Instruction]) {
            for instruction in instructions {
                switch instruction {
                case .bytes(let set):
                    opcodes.append(Self.step); first.append(Int32(sets.count)); second.append(0); sets.append(set)
                case .split(let a, let b):
                    opcodes.append(Self.split); first.append(Int32(a)); second.append(Int32(b))
                case .jump(let target):
                    opcodes.append(Self.jump); first.append(Int32(target)); second.append(0)
                case .assertion(let assertion):
                    opcodes.append(Self.assertion); first.append(Int32(assertions.count)); second.append(0)
                    assertions.append(assertion)
                case .match:
                    opcodes.append(Self.match); first.append(0); second.append(0)
                }
            }
        }
    }

    /// The thread lists of one search. A list holds only the threads waiting on a byte (their
    /// step instructions); `marks` stamps what the current closure has visited, so each
    /// instruction runs at most once per byte.
    struct Machine {
        var current: [Int32]
        var next: [Int32]
        var marks: [UInt32]
        var stamp: UInt32 = 0
        var stack: [Int32] = []
        /// Instructions run in the last search: at most (value length + 1) × program length.
        var steps = 0

        init(count: Int) {
            current = []
            next = []
            current.reserveCapacity(count)
            next.reserveCapacity(count)
            marks = Array(repeating: 0, count: count)
        }

        mutating func run(_ program: Flat, on input: UnsafeBufferPointer<UInt8>) -> Bool {
            current.removeAll(keepingCapacity: true)
            steps = 0
            var position = 0
            newStamp()
            // Unanchored: a new thread starts at every position.
            if Self.add(0, to: &current, &marks, stamp, &stack, &steps, program, input, position) { return true }
            while position < input.count {
                let byte = input[position]
                next.removeAll(keepingCapacity: true)
                newStamp()
                position += 1
                for pc in current where program.sets[Int(program.first[Int(pc)])].contains(byte) {
                    if Self.add(pc + 1, to: &next, &marks, stamp, &stack, &steps, program, input, position) { return true }
                }
                if Self.add(0, to: &next, &marks, stamp, &stack, &steps, program, input, position) { return true }
                swap(&current, &next)
            }
            return false
        }

        private mutating func newStamp() {
            stamp &+= 1
            if stamp == 0 {
                for index in marks.indices { marks[index] = 0 }
                stamp = 1
            }
        }

        /// Adds the thread at `start` and all reached from it without reading a byte; true
        /// when one of them is the match.
        private static func add(_ start: Int32, to list: inout [Int32], _ marks: inout [UInt32], _ stamp: UInt32,
                                _ stack: inout [Int32], _ steps: inout Int, _ program: Flat,
                                _ input: UnsafeBufferPointer<UInt8>, _ position: Int) -> Bool {
            stack.removeAll(keepingCapacity: true)
            stack.append(start)
            while let pc = stack.popLast() {
                let index = Int(pc)
                if marks[index] == stamp { continue }
                marks[index] = stamp
                steps += 1
                switch program.opcodes[index] {
                case Flat.match: return true
                case Flat.step: list.append(pc)
                case Flat.jump: stack.append(program.first[index])
                case Flat.split:
                    stack.append(program.second[index])
                    stack.append(program.first[index])
                default:
                    if Self.holds(program.assertions[Int(program.first[index])], input, position) { stack.append(pc + 1) }
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

/// A program with its thread lists, kept for the many values one query tests (no allocation
/// per value).
struct RegexMatcher {
    let program: RegexProgram
    private let flat: RegexProgram.Flat
    private var machine: RegexProgram.Machine

    init(_ program: RegexProgram) {
        self.program = program
        flat = RegexProgram.Flat(program.instructions)
        machine = RegexProgram.Machine(count: program.instructions.count)
    }

    mutating func matches(_ value: UnsafeBufferPointer<UInt8>) -> Bool {
        machine.run(flat, on: value)
    }

    /// Instructions the last `matches` ran (for the tests of linearity).
    var steps: Int { machine.steps }
}
