/// Which plural form a number takes in a language, from the catalogue's `Plural-Forms` header:
/// `nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && (n%100<10 || n%100>=20) ? 1 : 2);`
/// — gettext's C expression, which every PO tool writes and checks. Reading it (rather than
/// writing each language's rule in Swift) is what makes a new language a new file and nothing
/// else. The expression language is small: `n`, whole numbers, `( )`, `! * / % + - < <= > >=
/// == != && ||` and `? :`, with C's precedence.
public struct PluralRule: Sendable, Equatable {
    public let count: Int
    let expression: Expression

    /// Why a `Plural-Forms` header is not understood.
    public struct Unreadable: Error, Sendable, Equatable {
        public var reason: String
    }

    /// English and every language with two forms: 1 is the first form, everything else the second.
    public static let english = PluralRule(count: 2, expression: .binary("!=", .n, .number(1)))

    init(count: Int, expression: Expression) {
        self.count = count
        self.expression = expression
    }

    /// Reads `nplurals=N; plural=EXPRESSION;`.
    public init(header: String) throws(Unreadable) {
        var count: Int?
        var expression: Expression?
        for part in header.split(separator: ";") {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { continue }
            let name = pair[0].filter { !$0.isWhitespace }
            if name == "nplurals" {
                count = Int(pair[1].filter { !$0.isWhitespace })
            } else if name == "plural" {
                var parser = Parser(Array(pair[1].utf8))
                expression = try parser.whole()
            }
        }
        guard let count, (1...6).contains(count) else { throw Unreadable(reason: "nplurals must be 1 to 6") }
        guard let expression else { throw Unreadable(reason: "there is no plural= expression") }
        self.count = count
        self.expression = expression
    }

    /// The form `n` takes: 0 ..< count.
    public func form(_ n: Int) -> Int {
        let value = expression.value(UInt64(n.magnitude))
        return value < UInt64(count) ? Int(value) : count - 1
    }

    indirect enum Expression: Sendable, Equatable {
        case n
        case number(UInt64)
        case not(Expression)
        case binary(String, Expression, Expression)
        case choice(Expression, Expression, Expression)

        func value(_ n: UInt64) -> UInt64 {
            switch self {
            case .n: return n
            case .number(let value): return value
            case .not(let operand): return operand.value(n) == 0 ? 1 : 0
            case .choice(let condition, let then, let otherwise):
                return condition.value(n) != 0 ? then.value(n) : otherwise.value(n)
            case .binary(let op, let left, let right):
                let a = left.value(n)
                if op == "&&" { return a != 0 && right.value(n) != 0 ? 1 : 0 }
                if op == "||" { return a != 0 || right.value(n) != 0 ? 1 : 0 }
                let b = right.value(n)
                switch op {
                case "*": return a &* b
                case "/": return b == 0 ? 0 : a / b
                case "%": return b == 0 ? 0 : a % b
                case "+": return a &+ b
                case "-": return a &- b
                case "<": return a < b ? 1 : 0
                case "<=": return a <= b ? 1 : 0
                case ">": return a > b ? 1 : 0
                case ">=": return a >= b ? 1 : 0
                case "==": return a == b ? 1 : 0
                default: return a != b ? 1 : 0
                }
            }
        }
    }

    /// A recursive-descent parser with C's precedence, from `?:` down to unary `!`.
    struct Parser {
        let bytes: [UInt8]
        var at = 0
        var depth = 0

        init(_ bytes: [UInt8]) { self.bytes = bytes }

        static let levels: [[String]] = [
            ["||"], ["&&"], ["==", "!="], ["<=", ">=", "<", ">"], ["+", "-"], ["*", "/", "%"],
        ]

        mutating func whole() throws(Unreadable) -> Expression {
            let expression = try choice()
            skipSpaces()
            guard at == bytes.count else { throw Unreadable(reason: "unexpected text in the plural expression") }
            return expression
        }

        mutating func choice() throws(Unreadable) -> Expression {
            depth += 1
            defer { depth -= 1 }
            guard depth < 50 else { throw Unreadable(reason: "the plural expression is nested too deeply") }
            let condition = try binary(0)
            guard take("?") else { return condition }
            let then = try choice()
            guard take(":") else { throw Unreadable(reason: "? without :") }
            return .choice(condition, then, try choice())
        }

        mutating func binary(_ level: Int) throws(Unreadable) -> Expression {
            guard level < Self.levels.count else { return try unary() }
            var left = try binary(level + 1)
            while let op = Self.levels[level].first(where: { peek($0) }) {
                _ = take(op)
                left = .binary(op, left, try binary(level + 1))
            }
            return left
        }

        mutating func unary() throws(Unreadable) -> Expression {
            skipSpaces()
            if peek("!"), !peek("!=") {
                at += 1
                depth += 1
                defer { depth -= 1 }
                guard depth < 50 else { throw Unreadable(reason: "the plural expression is nested too deeply") }
                return .not(try unary())
            }
            if take("(") {
                let inner = try choice()
                guard take(")") else { throw Unreadable(reason: "( without )") }
                return inner
            }
            if take("n") { return .n }
            var value: UInt64 = 0
            var digits = 0
            while at < bytes.count, (48...57).contains(bytes[at]), digits < 9 {
                value = value * 10 + UInt64(bytes[at] - 48)
                at += 1
                digits += 1
            }
            guard digits > 0 else { throw Unreadable(reason: "expected n, a number or (") }
            return .number(value)
        }

        mutating func skipSpaces() {
            while at < bytes.count, bytes[at] == 32 || bytes[at] == 9 || bytes[at] == 10 || bytes[at] == 13 { at += 1 }
        }

        mutating func peek(_ token: String) -> Bool {
            skipSpaces()
            let utf8 = Array(token.utf8)
            return at + utf8.count <= bytes.count && Array(bytes[at..<at + utf8.count]) == utf8
        }

        mutating func take(_ token: String) -> Bool {
            guard peek(token) else { return false }
            at += token.utf8.count
            return true
        }
    }
}
