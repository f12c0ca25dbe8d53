/// A `Range: bytes=…` request header (RFC 9110 §14.1.2) for a file of a known size.
public enum ByteRangeRequest: Equatable, Sendable {
    /// No range, or one the server ignores (several ranges, or a malformed header): the whole file.
    case whole
    case part(ClosedRange<Int64>)
    /// The range starts beyond the end of the file.
    case unsatisfiable

    /// Reads the header for a file of `size` bytes.
    public init(header: String?, size: Int64) {
        guard let header else {
            self = .whole
            return
        }
        // Read as bytes: players send one on every request, and Foundation's trimming bridges
        // through NSString (a few per cent of a small range's cost).
        let bytes = Array(header.utf8)
        func isBlank(_ byte: UInt8) -> Bool { byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") }
        guard bytes.count <= 100, !bytes.contains(UInt8(ascii: ",")) else {
            self = .whole
            return
        }
        var text = bytes[...].drop(while: isBlank)
        while let last = text.last, isBlank(last) { text = text.dropLast() }
        guard String(decoding: text.prefix(6), as: UTF8.self).lowercased() == "bytes=" else {
            self = .whole
            return
        }
        let spec = text.dropFirst(6).drop(while: isBlank)
        let parts = spec.split(separator: UInt8(ascii: "-"), maxSplits: 1, omittingEmptySubsequences: false)
            .map { String(decoding: $0, as: UTF8.self) }
        guard parts.count == 2, parts.allSatisfy({ $0.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 } }) else {
            self = .whole
            return
        }
        let first = parts[0].isEmpty ? nil : Int64(parts[0])
        let last = parts[1].isEmpty ? nil : Int64(parts[1])
        switch (first, last) {
        case (nil, nil):
            self = .whole
        case (nil, let suffix?):
            // The last `suffix` bytes.
            guard suffix > 0, size > 0 else {
                self = .unsatisfiable
                return
            }
            self = .part(max(0, size - suffix)...(size - 1))
        case (let first?, let last):
            if let last, last < first {
                self = .whole
                return
            }
            guard first < size else {
                self = .unsatisfiable
                return
            }
            self = .part(first...min(last ?? (size - 1), size - 1))
        }
    }
}
