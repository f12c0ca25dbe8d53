/// JSON strings with escapes (`\n`, `\u0416`, surrogate pairs), turned into text.
extension JSONReader {
    /// A string's text from its bytes with escapes; nil if an escape or the UTF-8 is not valid.
    static func unescape(_ raw: ArraySlice<UInt8>) -> String? {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var index = raw.startIndex
        func hex4() -> UInt32? {
            guard index + 4 <= raw.endIndex else { return nil }
            var value: UInt32 = 0
            for byte in raw[index..<index + 4] {
                guard let digit = hexDigit(byte) else { return nil }
                value = value << 4 | digit
            }
            index += 4
            return value
        }
        while index < raw.endIndex {
            let byte = raw[index]
            index += 1
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                continue
            }
            guard index < raw.endIndex else { return nil }
            let kind = raw[index]
            index += 1
            switch kind {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(kind)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                guard var scalar = hex4() else { return nil }
                if (0xD800..<0xDC00).contains(scalar) {
                    // A high surrogate must be followed by an escaped low one.
                    guard index + 2 <= raw.endIndex, raw[index] == UInt8(ascii: "\\"),
                        raw[index + 1] == UInt8(ascii: "u")
                    else { return nil }
                    index += 2
                    guard let low = hex4(), (0xDC00..<0xE000).contains(low) else { return nil }
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let unicode = Unicode.Scalar(scalar) else { return nil }
                UTF8.encode(unicode) { out.append($0) }
            default: return nil
            }
        }
        return String(validating: out, as: UTF8.self)
    }

    private static func hexDigit(_ byte: UInt8) -> UInt32? {
        switch byte {
        case 0x30...0x39: UInt32(byte - 0x30)
        case 0x41...0x46: UInt32(byte - 0x41 + 10)
        case 0x61...0x66: UInt32(byte - 0x61 + 10)
        default: nil
        }
    }
}
