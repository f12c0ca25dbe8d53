/// A QR code (ISO/IEC 18004) of a short text, as an SVG: two-factor enrolment shows an
/// authenticator app's `otpauth://` address with it. Written here because no QR library is among
/// the packages Campus may use; it does only what that needs: byte mode, error correction level M,
/// versions 1–10 (up to 213 bytes), every mask tried and the one with the lowest penalty kept.
/// Decoded by zxing-cpp in Tests/e2e/test_two_factor.py.
public struct QRCode: Sendable {
    /// The modules, row by row: true is dark.
    public let modules: [[Bool]]
    public var size: Int { modules.count }

    public struct TooLong: Error, Equatable {}

    /// Data codewords of each version at level M, and its error correction per block and blocks.
    static let dataCodewords = [0, 16, 28, 44, 64, 86, 108, 124, 154, 182, 216]
    static let eccPerBlock = [0, 10, 16, 26, 18, 24, 16, 18, 22, 22, 26]
    static let blocks = [0, 1, 1, 1, 2, 2, 4, 4, 4, 5, 5]

    public init(_ text: String) throws {
        let bytes = Array(text.utf8)
        guard
            let version = (1...10).first(where: { v in
                4 + (v < 10 ? 8 : 16) + bytes.count * 8 <= Self.dataCodewords[v] * 8
            })
        else { throw TooLong() }
        var matrix = Matrix(version: version)
        matrix.drawFunctionPatterns()
        matrix.drawCodewords(Self.codewords(bytes, version: version))
        var best = (penalty: Int.max, modules: matrix.dark)
        for mask in 0..<8 {
            var candidate = matrix
            candidate.apply(mask: mask)
            candidate.drawFormatBits(mask: mask)
            let penalty = candidate.penalty()
            if penalty < best.penalty { best = (penalty, candidate.dark) }
        }
        modules = best.modules
    }

    /// The code as an SVG with a quiet zone of four modules, black on white, scaling to its box.
    public func svg(title: String) -> String {
        let side = size + 8
        var path = ""
        for (y, row) in modules.enumerated() {
            for (x, dark) in row.enumerated() where dark { path += "M\(x + 4),\(y + 4)h1v1h-1z" }
        }
        let escaped = title.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
        return """
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 \(side) \(side)" shape-rendering="crispEdges" \
            role="img"><title>\(escaped)</title><rect width="\(side)" height="\(side)" fill="#fff"/>\
            <path d="\(path)" fill="#000"/></svg>
            """
    }

    /// The data, padded, split into blocks with Reed–Solomon error correction, interleaved.
    static func codewords(_ bytes: [UInt8], version: Int) -> [UInt8] {
        var bits: [Bool] = []
        func append(_ value: Int, _ count: Int) {
            for shift in stride(from: count - 1, through: 0, by: -1) { bits.append((value >> shift) & 1 == 1) }
        }
        append(0b0100, 4)
        append(bytes.count, version < 10 ? 8 : 16)
        for byte in bytes { append(Int(byte), 8) }
        let capacity = dataCodewords[version] * 8
        append(0, min(4, capacity - bits.count))
        append(0, (8 - bits.count % 8) % 8)
        var data: [UInt8] = stride(from: 0, to: bits.count, by: 8).map { start in
            bits[start..<start + 8].reduce(UInt8(0)) { $0 << 1 | ($1 ? 1 : 0) }
        }
        var pad: UInt8 = 0xEC
        while data.count < dataCodewords[version] {
            data.append(pad)
            pad = pad == 0xEC ? 0x11 : 0xEC
        }
        let blockCount = blocks[version]
        let ecc = eccPerBlock[version]
        let total = Matrix.rawDataModules(version) / 8
        let shortBlocks = blockCount - total % blockCount
        let shortLength = total / blockCount
        let divisor = ReedSolomon.divisor(degree: ecc)
        var split: [[UInt8]] = []
        var start = 0
        for index in 0..<blockCount {
            let length = shortLength - ecc + (index < shortBlocks ? 0 : 1)
            let block = Array(data[start..<start + length])
            start += length
            split.append(block + ReedSolomon.remainder(block, divisor: divisor))
        }
        var result: [UInt8] = []
        let longest = split.map { $0.count }.max() ?? 0
        for column in 0..<longest {
            for block in split where column < block.count - ecc { result.append(block[column]) }
        }
        for column in 0..<ecc {
            for block in split { result.append(block[block.count - ecc + column]) }
        }
        return result
    }
}

/// Reed–Solomon over GF(2⁸) with the QR polynomial x⁸ + x⁴ + x³ + x² + 1.
enum ReedSolomon {
    static func multiply(_ x: UInt8, _ y: UInt8) -> UInt8 {
        var z = 0
        for bit in stride(from: 7, through: 0, by: -1) {
            z = (z << 1) ^ ((z >> 7) * 0x11D)
            z ^= Int((y >> UInt8(bit)) & 1) * Int(x)
        }
        return UInt8(z)
    }

    static func divisor(degree: Int) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: degree)
        result[degree - 1] = 1
        var root: UInt8 = 1
        for _ in 0..<degree {
            for j in 0..<degree {
                result[j] = multiply(result[j], root)
                if j + 1 < degree { result[j] ^= result[j + 1] }
            }
            root = multiply(root, 0x02)
        }
        return result
    }

    static func remainder(_ data: [UInt8], divisor: [UInt8]) -> [UInt8] {
        var result = [UInt8](repeating: 0, count: divisor.count)
        for byte in data {
            let factor = byte ^ result.removeFirst()
            result.append(0)
            for i in result.indices { result[i] ^= multiply(divisor[i], factor) }
        }
        return result
    }
}
