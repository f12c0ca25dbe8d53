import Foundation

// The small helpers every layer shares: times as whole seconds, lists in chunks, hex and
// base64url text. They live here, in one file and a module of their own that any module may
// import, so that nobody writes a second copy.

extension Date {
    /// Whole seconds since 1970, as stored.
    public var epoch: Int64 { Int64(timeIntervalSince1970.rounded(.down)) }
    public init(epoch: Int64) { self.init(timeIntervalSince1970: TimeInterval(epoch)) }
    public var rounded: Date { Date(epoch: epoch) }
    /// Whole milliseconds since 1970, as stored where seconds are too coarse (leases, heartbeats).
    public var milliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }
    public init(milliseconds: Int64) { self.init(timeIntervalSince1970: TimeInterval(milliseconds) / 1000) }
}

extension Array where Element: Hashable {
    /// The elements in their order, each once.
    public func uniqued() -> [Element] {
        var seen = Set<Element>()
        return filter { seen.insert($0).inserted }
    }
}

extension String {
    /// The words a search looks for, each of which a hit must hold: in lower case, split at white
    /// space and quotation marks (players send a Subsonic search in quotes), at most eight.
    public var searchWords: [String] {
        lowercased().split(whereSeparator: { $0.isWhitespace || $0 == "\"" }).prefix(8).map(String.init)
    }
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

extension Array where Element == UInt8 {
    /// The bytes that hexadecimal digits (either case, two per byte) write; nil for anything else.
    public init?(hexadecimal text: some StringProtocol) {
        let digits = [UInt8](text.utf8)
        guard digits.count.isMultiple(of: 2) else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: digit - 0x30
            case 0x61...0x66: digit - 0x57
            case 0x41...0x46: digit - 0x37
            default: nil
            }
        }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        for index in stride(from: 0, to: digits.count, by: 2) {
            guard let high = value(digits[index]), let low = value(digits[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
        }
        self = bytes
    }
}

extension Data {
    public var base64URLEncoded: String {
        base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }

    /// The bytes of base64url text (padding optional) of at most `maximumLength` characters.
    public init?(base64URLEncoded text: String, maximumLength: Int = 512) {
        guard text.utf8.count <= maximumLength else { return nil }
        var base64 = text.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        while base64.count % 4 != 0 { base64 += "=" }
        self.init(base64Encoded: base64)
    }
}
