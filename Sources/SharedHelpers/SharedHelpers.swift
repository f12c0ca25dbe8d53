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
    /// The bytes as lowercase hexadecimal digits. Inlinable, so that it is compiled for each
    /// caller's sequence type (unspecialized, it cost as much as the SHA-256 of an import's lesson).
    @inlinable public var hexadecimal: String {
        var text = [UInt8]()
        text.reserveCapacity(underestimatedCount * 2)
        for byte in self {
            let high = byte >> 4
            let low = byte & 0x0F
            text.append(high < 10 ? 0x30 + high : 0x57 + high)
            text.append(low < 10 ? 0x30 + low : 0x57 + low)
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
