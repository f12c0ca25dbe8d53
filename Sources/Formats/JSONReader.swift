import Foundation
import Localization

/// Reads one JSON document front to back, value by value, for the files an import reads by the
/// thousand (IIS schedules and the teacher and group lists).
///
/// Why not `JSONDecoder`: decoding IIS schedules through `Codable` was half of an import's CPU
/// (Foundation's decoder goes through generic containers for every key of every lesson), and
/// none of the libraries Campus may use reads JSON without `Codable`. This reader checks the whole
/// grammar of RFC 8259 (strings' escapes and UTF-8, numbers, nesting up to ``maximumDepth``) and
/// says what was wrong at which field, in the words the `Codable` errors were given
/// (``ImportError``), so a bad file reads as before.
///
///     var reader = try JSONReader(data)
///     guard try reader.beginObject() else { … null … }
///     while let key = try reader.nextKey() {
///         switch key {
///         case "name": name = try reader.readString()
///         default: try reader.skipValue()
///         }
///     }
struct JSONReader {
    /// Objects and arrays nested deeper than this are refused (as Foundation's decoder does).
    static let maximumDepth = 512

    /// A key of the object being read; compared with string literals without making a `String`.
    struct Key {
        fileprivate let bytes: ArraySlice<UInt8>
        fileprivate let escaped: Bool

        var string: String {
            escaped ? JSONReader.unescape(bytes) ?? "" : String(decoding: bytes, as: UTF8.self)
        }

        static func ~= (pattern: StaticString, key: Key) -> Bool {
            guard !key.escaped, pattern.utf8CodeUnitCount == key.bytes.count else { return false }
            return pattern.withUTF8Buffer { $0.elementsEqual(key.bytes) }
        }
    }

    private enum Step {
        /// An object's key being read; nil before the first.
        case key(Range<Int>?)
        /// An array's element being read; -1 before the first.
        case index(Int)
    }

    private let bytes: [UInt8]
    private var position = 0
    /// Where the reader is, for error messages: a key per object and an index per array.
    private var path: [Step] = []

    /// Starts at the first value (after a byte-order mark and white space).
    init(_ data: Data) throws {
        bytes = [UInt8](data)
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { position = 3 }
        try atValue()
    }

    /// Checks that nothing but white space follows the document's value.
    func finish() throws {
        var copy = self
        copy.skipSpace()
        guard copy.position == bytes.count else { throw copy.invalid() }
    }

    // MARK: Objects and arrays

    /// Enters an object; false (and the null read) when the value is null.
    mutating func beginObject() throws -> Bool {
        try begin(UInt8(ascii: "{"), .key(nil), expected: [String: Int].self)
    }

    /// Enters an array; false (and the null read) when the value is null.
    mutating func beginArray() throws -> Bool {
        try begin(UInt8(ascii: "["), .index(-1), expected: [Int].self)
    }

    /// The next key of the object entered last, with the reader at its value; nil at the object's
    /// end (the reader then is after it).
    mutating func nextKey() throws -> Key? {
        guard case .key(let previous) = path.last else { preconditionFailure("nextKey outside an object") }
        skipSpace()
        guard position < bytes.count else { throw invalid() }
        if bytes[position] == UInt8(ascii: "}") {
            position += 1
            path.removeLast()
            return nil
        }
        if previous != nil {
            guard bytes[position] == UInt8(ascii: ",") else { throw invalid() }
            position += 1
            skipSpace()
        }
        guard position < bytes.count, bytes[position] == UInt8(ascii: "\"") else { throw invalid() }
        let (range, escaped) = try scanString()
        path[path.count - 1] = .key(range)
        skipSpace()
        guard position < bytes.count, bytes[position] == UInt8(ascii: ":") else { throw invalid() }
        position += 1
        try atValue()
        return Key(bytes: bytes[range], escaped: escaped)
    }

    /// Whether the array entered last has another element (the reader then is at it); false at
    /// the array's end (the reader then is after it).
    mutating func nextElement() throws -> Bool {
        guard case .index(let index) = path.last else { preconditionFailure("nextElement outside an array") }
        skipSpace()
        guard position < bytes.count else { throw invalid() }
        if bytes[position] == UInt8(ascii: "]") {
            position += 1
            path.removeLast()
            return false
        }
        if index >= 0 {
            guard bytes[position] == UInt8(ascii: ",") else { throw invalid() }
            position += 1
            try atValue()
            guard bytes[position] != UInt8(ascii: "]") else { throw invalid() }
        }
        path[path.count - 1] = .index(index + 1)
        return true
    }

    /// The index of the element being read, or -1 before the first.
    var index: Int {
        if case .index(let index) = path.last { return index }
        return -1
    }

    /// What the next value is, told from its first byte.
    enum Kind { case object, array, string, number, bool, null }

    var next: Kind {
        switch bytes[position] {
        case UInt8(ascii: "{"): .object
        case UInt8(ascii: "["): .array
        case UInt8(ascii: "\""): .string
        case UInt8(ascii: "t"), UInt8(ascii: "f"): .bool
        case UInt8(ascii: "n"): .null
        default: .number
        }
    }

    /// Enters an object that must be there (null is an error).
    mutating func enterObject() throws {
        guard bytes[position] != UInt8(ascii: "n") else { throw mismatch([String: Int].self) }
        _ = try beginObject()
    }

    /// Enters an array that must be there (null is an error).
    mutating func enterArray() throws {
        guard bytes[position] != UInt8(ascii: "n") else { throw mismatch([Int].self) }
        _ = try beginArray()
    }

    /// An array's elements, each read by `element`; nil for null.
    mutating func readArray<Element>(_ element: (inout JSONReader) throws -> Element) throws -> [Element]? {
        if try readNull() { return nil }
        return try requireArray(element)
    }

    /// An array that must be there (null is an error), each element read by `element`.
    mutating func requireArray<Element>(_ element: (inout JSONReader) throws -> Element) throws -> [Element] {
        try enterArray()
        var result: [Element] = []
        while try nextElement() { result.append(try element(&self)) }
        return result
    }

    /// A string that must be there (null is an error).
    mutating func requireString() throws -> String {
        guard bytes[position] != UInt8(ascii: "n"), let text = try readString() else { throw mismatch(String.self) }
        return text
    }

    /// A whole number that must be there (null is an error).
    mutating func requireInt() throws -> Int {
        guard bytes[position] != UInt8(ascii: "n"), let value = try readInt() else { throw mismatch(Int.self) }
        return value
    }

    // MARK: Values

    /// A string, or nil for null.
    mutating func readString() throws -> String? {
        if try readNull() { return nil }
        guard bytes[position] == UInt8(ascii: "\"") else { throw mismatch(String.self) }
        let (range, escaped) = try scanString()
        if !escaped {
            guard let text = String(validating: bytes[range], as: UTF8.self) else { throw invalid() }
            return text
        }
        guard let text = Self.unescape(bytes[range]) else { throw invalid() }
        return text
    }

    /// A whole number, or nil for null.
    mutating func readInt() throws -> Int? {
        if try readNull() { return nil }
        let start = position
        guard try scanNumber() else {
            position = start
            throw mismatch(Int.self)
        }
        var value = 0
        var index = start
        let negative = bytes[index] == UInt8(ascii: "-")
        if negative { index += 1 }
        while index < position {
            let digit = Int(bytes[index] &- 0x30)
            guard digit >= 0, digit <= 9 else {
                position = start
                throw mismatch(Int.self)
            }
            let (times, overflow) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times.addingReportingOverflow(negative ? -digit : digit)
            guard !overflow, !overflow2 else {
                position = start
                throw mismatch(Int.self)
            }
            value = sum
            index += 1
        }
        return value
    }

    /// true or false, or nil for null.
    mutating func readBool() throws -> Bool? {
        if try readNull() { return nil }
        if try literal("true") { return true }
        if try literal("false") { return false }
        throw mismatch(Bool.self)
    }

    /// Reads a null if that is what is next.
    mutating func readNull() throws -> Bool {
        try literal("null")
    }

    /// Checks and passes over the next value, whatever it is.
    mutating func skipValue() throws {
        switch bytes[position] {
        case UInt8(ascii: "{"):
            _ = try beginObject()
            while try nextKey() != nil { try skipValue() }
        case UInt8(ascii: "["):
            _ = try beginArray()
            while try nextElement() { try skipValue() }
        case UInt8(ascii: "\""):
            let (range, escaped) = try scanString()
            if escaped ? Self.unescape(bytes[range]) == nil : String(validating: bytes[range], as: UTF8.self) == nil {
                throw invalid()
            }
        case UInt8(ascii: "t"), UInt8(ascii: "f"): _ = try readBool()
        case UInt8(ascii: "n"): guard try readNull() else { throw invalid() }
        default: guard try scanNumber() else { throw invalid() }
        }
    }

    // MARK: Errors

    /// The field being read, as `schedules.Понедельник[3].weekNumber`.
    var field: String {
        var text = ""
        for step in path {
            switch step {
            case .key(let range):
                guard let range else { break }
                let name = String(decoding: bytes[range], as: UTF8.self)
                text += text.isEmpty ? name : ".\(name)"
            case .index(let index) where index >= 0: text += "[\(index)]"
            case .index: break
            }
        }
        return text
    }

    /// The value at the reader is not what the field holds.
    func mismatch(_ expected: Any.Type) -> ImportError {
        if bytes[position] == UInt8(ascii: "n"), bytes[position...].starts(with: "null".utf8) {
            return ImportError(
                field: field,
                Phrase("expected {type}, found null.", parts: ["type": ImportError.describe(expected)]))
        }
        return ImportError(field: field, Phrase("expected {type}.", parts: ["type": ImportError.describe(expected)]))
    }

    /// A field the object must have is not there.
    func missing(_ key: String) -> ImportError {
        let place = field
        return ImportError(field: place.isEmpty ? key : "\(place).\(key)", detail: "is missing.")
    }

    private func invalid() -> ImportError {
        ImportError(field: "", detail: "is not valid JSON.")
    }

    // MARK: Scanning

    private mutating func begin(_ opening: UInt8, _ step: Step, expected: Any.Type) throws -> Bool {
        if try readNull() { return false }
        guard bytes[position] == opening else { throw mismatch(expected) }
        guard path.count < Self.maximumDepth else { throw invalid() }
        position += 1
        path.append(step)
        return true
    }

    /// Passes white space before a value; there must be one.
    private mutating func atValue() throws {
        skipSpace()
        guard position < bytes.count else { throw invalid() }
    }

    private mutating func skipSpace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func literal(_ word: StaticString) throws -> Bool {
        let count = word.utf8CodeUnitCount
        guard position + count <= bytes.count,
            word.withUTF8Buffer({ $0.elementsEqual(bytes[position..<position + count]) })
        else { return false }
        position += count
        return true
    }

    /// Passes a string (the reader at its opening quote); its bytes between the quotes, and
    /// whether they hold escapes. Control characters are refused; escapes are checked later.
    private mutating func scanString() throws -> (Range<Int>, escaped: Bool) {
        position += 1
        let start = position
        var escaped = false
        while position < bytes.count {
            switch bytes[position] {
            case UInt8(ascii: "\""):
                position += 1
                return (start..<position - 1, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                position += 2
            case 0..<0x20: throw invalid()
            default: position += 1
            }
        }
        throw invalid()
    }

    /// Passes a number as RFC 8259 writes it; false (the reader unmoved) if there is none.
    private mutating func scanNumber() throws -> Bool {
        let start = position
        func digits() -> Int {
            let first = position
            while position < bytes.count, bytes[position] >= 0x30, bytes[position] <= 0x39 { position += 1 }
            return position - first
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "-") { position += 1 }
        let leading = position
        guard digits() > 0 else {
            position = start
            return false
        }
        if bytes[leading] == 0x30, position - leading > 1 { throw invalid() }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw invalid() }
        }
        if position < bytes.count, bytes[position] | 0x20 == UInt8(ascii: "e") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") {
                position += 1
            }
            guard digits() > 0 else { throw invalid() }
        }
        return true
    }
}
