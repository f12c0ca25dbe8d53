extension URLEncodedForm {
    /// The fields in order, each value as the bytes it stands for (`+` is a space, `%XX` a byte),
    /// for senders whose text may not be UTF-8: Icecast's source clients send titles in their
    /// encoder's character set. Read leniently, as Icecast reads them: a `%` not followed by two
    /// hexadecimal digits is kept as it is.
    public static func byteFields(in query: String) -> [(name: String, value: [UInt8])] {
        query.split(separator: "&").map { pair -> (name: String, value: [UInt8]) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = String(decoding: bytes(of: parts.first ?? ""), as: UTF8.self)
            return (name: name, value: parts.count > 1 ? bytes(of: parts[1]) : [])
        }
    }

    private static func bytes(of part: Substring) -> [UInt8] {
        let input = Array(part.utf8)
        var output: [UInt8] = []
        output.reserveCapacity(input.count)
        var index = 0
        while index < input.count {
            let byte = input[index]
            if byte == UInt8(ascii: "+") {
                output.append(UInt8(ascii: " "))
                index += 1
            } else if byte == UInt8(ascii: "%"), index + 2 < input.count, let high = hexDigit(input[index + 1]),
                let low = hexDigit(input[index + 2])
            {
                output.append(high << 4 | low)
                index += 3
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    private static func hexDigit(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
