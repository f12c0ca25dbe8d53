import Foundation

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
        let text = header.trimmingCharacters(in: .whitespaces)
        guard text.count <= 100, text.lowercased().hasPrefix("bytes="), !text.contains(",") else {
            self = .whole
            return
        }
        let spec = text.dropFirst("bytes=".count).trimmingCharacters(in: .whitespaces)
        let parts = spec.split(separator: "-", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts.allSatisfy({ $0.allSatisfy(\.isASCII) && $0.allSatisfy(\.isNumber) }) else {
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
