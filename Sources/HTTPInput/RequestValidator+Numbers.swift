import Foundation
import InputRules

/// Numbers JSON allows and Campus cannot compute with, found before the body is decoded.
extension RequestValidator {
    /// The first number of a JSON text that a 64-bit floating-point number cannot hold: too large
    /// (`1e400`), or not zero but too close to it (`1e-400`). JSON allows them; Campus cannot
    /// compute with them.
    public static func unrepresentableNumber(in data: Data) -> (text: String, isLarge: Bool)? {
        var inString = false
        var escaped = false
        var index = data.startIndex
        while index < data.endIndex {
            let byte = data[index]
            if inString {
                if escaped {
                    escaped = false
                } else if byte == UInt8(ascii: "\\") {
                    escaped = true
                } else if byte == UInt8(ascii: "\"") {
                    inString = false
                }
                index += 1
                continue
            }
            if byte == UInt8(ascii: "\"") {
                inString = true
                index += 1
                continue
            }
            guard byte == UInt8(ascii: "-") || (0x30...0x39).contains(byte) else {
                index += 1
                continue
            }
            var end = index
            while end < data.endIndex, Self.numberBytes.contains(data[end]) { end += 1 }
            let token = String(decoding: data[index..<end], as: UTF8.self)
            index = end
            guard token.utf8.count <= 400, let value = Double(token) else { continue }
            if !value.isFinite { return (String(token.prefix(40)), true) }
            let mantissa = token.prefix { $0 != "e" && $0 != "E" }
            if value == 0, mantissa.contains(where: { ("1"..."9").contains($0) }) {
                return (String(token.prefix(40)), false)
            }
        }
        return nil
    }

    static let numberBytes = Set("0123456789+-.eE".utf8)

    static func numberProblem(_ number: (text: String, isLarge: Bool)) -> ValidationFailure {
        if number.isLarge {
            return ValidationFailure([
                FieldProblem(
                    field: "", detail: "The number {number} is too large; numbers are at most about 1.8e308.",
                    ["number": number.text])
            ])
        }
        return ValidationFailure([
            FieldProblem(
                field: "",
                detail: "The number {number} is too close to zero to be kept (the smallest is about 5e-324); write 0.",
                ["number": number.text])
        ])
    }
}
