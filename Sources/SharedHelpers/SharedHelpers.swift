import Foundation

// The small helpers every layer shares: times as whole seconds, lists in chunks, hex and
// base64url text. They live here, in one file and a module of their own that any module may
// import, so that nobody writes a second copy.

extension Date {
    /// Whole seconds since 1970, as stored.
    public var epoch: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
    public init(epoch: Int64) { self.init(timeIntervalSince1970: TimeInterval(epoch)) }
    public var rounded: Date { Date(epoch: epoch) }
}

extension Array {
    public func chunked(_ size: Int) -> [ArraySlice<Element>] {
        stride(from: 0, to: count, by: size).map { self[$0..<Swift.min($0 + size, count)] }
    }
}

extension Sequence where Element == UInt8 {
    /// The bytes as lowercase hexadecimal digits.
    public var hexadecimal: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}

extension Data {
    public var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    public init?(base64URLEncoded text: String) {
        guard text.count <= 512 else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
