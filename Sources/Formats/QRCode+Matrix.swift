/// A QR symbol being drawn: its modules and which of them are function patterns (finders,
/// timing, alignment, format and version), which data and masks leave alone.
struct Matrix: Sendable {
    let version: Int
    let size: Int
    var dark: [[Bool]]
    var isFunction: [[Bool]]

    init(version: Int) {
        self.version = version
        size = version * 4 + 17
        dark = Array(repeating: Array(repeating: false, count: size), count: size)
        isFunction = dark
    }

    /// Modules left for data and error correction in a version (of which whole bytes are used).
    static func rawDataModules(_ version: Int) -> Int {
        var result = (16 * version + 128) * version + 64
        if version >= 2 {
            let alignments = version / 7 + 2
            result -= (25 * alignments - 10) * alignments - 55
            if version >= 7 { result -= 36 }
        }
        return result
    }

    mutating func set(_ x: Int, _ y: Int, _ value: Bool) {
        dark[y][x] = value
        isFunction[y][x] = true
    }

    mutating func drawFunctionPatterns() {
        for i in 0..<size {
            set(6, i, i % 2 == 0)
            set(i, 6, i % 2 == 0)
        }
        for (x, y) in [(3, 3), (size - 4, 3), (3, size - 4)] {
            for dy in -4...4 {
                for dx in -4...4 where (0..<size).contains(x + dx) && (0..<size).contains(y + dy) {
                    let distance = max(abs(dx), abs(dy))
                    set(x + dx, y + dy, distance != 2 && distance != 4)
                }
            }
        }
        let positions = alignmentPositions()
        for (i, x) in positions.enumerated() {
            for (j, y) in positions.enumerated() {
                let finderCorner =
                    (i == 0 && j == 0) || (i == 0 && j == positions.count - 1) || (i == positions.count - 1 && j == 0)
                guard !finderCorner else { continue }
                for dy in -2...2 {
                    for dx in -2...2 { set(x + dx, y + dy, max(abs(dx), abs(dy)) != 1) }
                }
            }
        }
        drawFormatBits(mask: 0)  // reserves the places; drawn again with the mask chosen
        if version >= 7 {
            var remainder = version
            for _ in 0..<12 { remainder = (remainder << 1) ^ ((remainder >> 11) * 0x1F25) }
            let bits = version << 12 | remainder
            for i in 0..<18 {
                let bit = (bits >> i) & 1 == 1
                let (a, b) = (size - 11 + i % 3, i / 3)
                set(a, b, bit)
                set(b, a, bit)
            }
        }
    }

    func alignmentPositions() -> [Int] {
        guard version > 1 else { return [] }
        let count = version / 7 + 2
        let step = (version * 8 + count * 3 + 5) / (count * 4 - 4) * 2
        var result = [6]
        for i in 0..<(count - 1) { result.insert(size - 7 - i * step, at: 1) }
        return result
    }

    /// Level M's format bits with the mask, BCH-protected, in both places, and the dark module.
    mutating func drawFormatBits(mask: Int) {
        let data = 0 << 3 | mask  // level M is 00
        var remainder = data
        for _ in 0..<10 { remainder = (remainder << 1) ^ ((remainder >> 9) * 0x537) }
        let bits = (data << 10 | remainder) ^ 0x5412
        func bit(_ i: Int) -> Bool { (bits >> i) & 1 == 1 }
        for i in 0...5 { set(8, i, bit(i)) }
        set(8, 7, bit(6))
        set(8, 8, bit(7))
        set(7, 8, bit(8))
        for i in 9..<15 { set(14 - i, 8, bit(i)) }
        for i in 0..<8 { set(size - 1 - i, 8, bit(i)) }
        for i in 8..<15 { set(8, size - 15 + i, bit(i)) }
        set(8, size - 8, true)
    }

    /// The codewords in the zigzag of two-module columns from the bottom right.
    mutating func drawCodewords(_ codewords: [UInt8]) {
        var index = 0
        var right = size - 1
        while right >= 1 {
            if right == 6 { right = 5 }
            for vertical in 0..<size {
                for j in 0..<2 {
                    let x = right - j
                    let upward = (right + 1) & 2 == 0
                    let y = upward ? size - 1 - vertical : vertical
                    guard !isFunction[y][x], index < codewords.count * 8 else { continue }
                    dark[y][x] = (codewords[index >> 3] >> (7 - UInt8(index & 7))) & 1 == 1
                    index += 1
                }
            }
            right -= 2
        }
    }

    mutating func apply(mask: Int) {
        for y in 0..<size {
            for x in 0..<size where !isFunction[y][x] {
                let flip =
                    switch mask {
                    case 0: (x + y) % 2 == 0
                    case 1: y % 2 == 0
                    case 2: x % 3 == 0
                    case 3: (x + y) % 3 == 0
                    case 4: (x / 3 + y / 2) % 2 == 0
                    case 5: x * y % 2 + x * y % 3 == 0
                    case 6: (x * y % 2 + x * y % 3) % 2 == 0
                    default: ((x + y) % 2 + x * y % 3) % 2 == 0
                    }
                if flip { dark[y][x].toggle() }
            }
        }
    }

    /// The standard's penalty: runs of five or more, 2×2 blocks, finder-like patterns, and the
    /// balance of dark and light.
    func penalty() -> Int {
        var result = 0
        let columns = (0..<size).map { x in (0..<size).map { y in dark[y][x] } }
        for line in dark + columns {
            var run = 1
            for i in 1..<size {
                if line[i] == line[i - 1] {
                    run += 1
                } else {
                    if run >= 5 { result += run - 2 }
                    run = 1
                }
            }
            if run >= 5 { result += run - 2 }
            let pattern: [Bool] = [true, false, true, true, true, false, true]
            for i in 0...(size - 7) where Array(line[i..<i + 7]) == pattern {
                let before = i >= 4 && !line[(i - 4)..<i].contains(true)
                let after = i + 11 <= size && !line[(i + 7)..<(i + 11)].contains(true)
                if before || after { result += 40 }
            }
        }
        for y in 0..<(size - 1) {
            for x in 0..<(size - 1) {
                let color = dark[y][x]
                if dark[y][x + 1] == color && dark[y + 1][x] == color && dark[y + 1][x + 1] == color { result += 3 }
            }
        }
        let darkCount = dark.reduce(0) { $0 + $1.filter { $0 }.count }
        let total = size * size
        let k = (abs(darkCount * 20 - total * 10) + total - 1) / total - 1
        return result + max(0, k) * 10
    }
}
