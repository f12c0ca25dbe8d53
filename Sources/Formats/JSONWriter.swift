/// JSON written straight into bytes, for answers made often enough that Foundation's
/// `JSONEncoder` (a keyed container, a boxed value and a dictionary per object) is most of their
/// cost. It writes what `JSONEncoder` with `.sortedKeys` writes, byte for byte — the caller gives
/// each object's keys in that order — which a test checks on real answers: strings with `"`,
/// `\` and `/` escaped, the control characters as `\b \f \n \r \t` or `\u00xx`, everything else
/// as UTF-8; integers in decimal; no spaces.
public struct JSONWriter: Sendable {
    public private(set) var bytes: [UInt8] = []
    /// Whether the next value in the current object or array needs a comma before it.
    private var needsComma = false

    public init(capacity: Int = 4096) { bytes.reserveCapacity(capacity) }

    /// An object: `body` writes its fields, in the order of their keys.
    public mutating func object(_ body: (inout JSONWriter) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "{"))
        needsComma = false
        body(&self)
        bytes.append(UInt8(ascii: "}"))
        needsComma = true
    }

    /// An array of `items`, each written by `item`.
    public mutating func array<Items: Sequence>(_ items: Items, _ item: (inout JSONWriter, Items.Element) -> Void) {
        separate()
        bytes.append(UInt8(ascii: "["))
        needsComma = false
        for element in items { item(&self, element) }
        bytes.append(UInt8(ascii: "]"))
        needsComma = true
    }

    /// A key of the current object; its value comes next.
    public mutating func key(_ key: StaticString) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(contentsOf: [UInt8(ascii: "\""), UInt8(ascii: ":")])
        needsComma = false
    }

    public mutating func string(_ text: String) {
        separate()
        bytes.append(UInt8(ascii: "\""))
        // Most strings (names, dates, ids) need no escape: then their bytes are copied at once.
        let copied =
            text.utf8.withContiguousStorageIfAvailable { utf8 in
                guard !utf8.contains(where: Self.needsEscape) else { return false }
                bytes.append(contentsOf: utf8)
                return true
            } ?? false
        if !copied { escape(text) }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A byte written escaped: a control character, a quote, a backslash or a slash.
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "/")
    }

    private mutating func escape(_ text: String) {
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): bytes.append(contentsOf: [0x5C, 0x22])
            case UInt8(ascii: "\\"): bytes.append(contentsOf: [0x5C, 0x5C])
            case UInt8(ascii: "/"): bytes.append(contentsOf: [0x5C, 0x2F])
            case 0x08: bytes.append(contentsOf: [0x5C, UInt8(ascii: "b")])
            case 0x0C: bytes.append(contentsOf: [0x5C, UInt8(ascii: "f")])
            case 0x0A: bytes.append(contentsOf: [0x5C, UInt8(ascii: "n")])
            case 0x0D: bytes.append(contentsOf: [0x5C, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5C, UInt8(ascii: "t")])
            case 0..<0x20:
                let hex = Array("0123456789abcdef".utf8)
                bytes.append(contentsOf: Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 0xF)]])
            default: bytes.append(byte)
            }
        }
    }

    public mutating func integer(_ value: some BinaryInteger) {
        separate()
        bytes.append(contentsOf: String(value).utf8)
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    /// `key` and its string, when there is one (`JSONEncoder` leaves absent optionals out).
    public mutating func field(_ key: StaticString, _ value: String?) {
        guard let value else { return }
        self.key(key)
        string(value)
    }

    public mutating func field(_ key: StaticString, _ value: Int?) {
        guard let value else { return }
        self.key(key)
        integer(value)
    }

    public mutating func field(_ key: StaticString, _ value: Int64?) {
        guard let value else { return }
        self.key(key)
        integer(value)
    }

    public mutating func field(_ key: StaticString, _ value: Bool) {
        self.key(key)
        bool(value)
    }

    private mutating func separate() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
