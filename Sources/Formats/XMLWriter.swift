/// The one way Campus writes XML (podcast feeds, Subsonic answers): elements with attributes and
/// text, every value escaped by one rule (``escaped(_:inAttribute:)``), so that what is written is
/// well-formed XML 1.0 whatever the values hold.
///
/// Written as text rather than with FoundationXML's `XMLDocument`, which on Linux writes control
/// characters as they are (a document no parser reads) and kept about 0.8 KB of every document
/// after it was freed (see ``RSS/write(_:selfURL:)``).
public struct XMLWriter: Sendable {
    public private(set) var text: String
    private var depth = 0
    private let indented: Bool

    /// A document with the XML declaration; `indented` puts each element on a line of its own
    /// (feeds, read by people too), else everything is on one line (Subsonic answers).
    public init(indented: Bool = true) {
        self.indented = indented
        text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>" + (indented ? "\n" : "")
    }

    /// `<name attributes>`, attributes in the order of their names.
    public mutating func open(_ name: String, _ attributes: [String: String] = [:]) {
        open(name, attributes: Self.sorted(attributes))
    }

    /// `<name attributes>`, attributes in the order given.
    public mutating func open(_ name: String, attributes: [(String, String)]) {
        text += indent + "<" + name + Self.attributes(attributes) + ">" + lineEnd
        depth += 1
    }

    /// Text inside the element opened last.
    public mutating func characters(_ value: String) {
        text += Self.escaped(value, inAttribute: false)
    }

    public mutating func close(_ name: String) {
        depth -= 1
        text += indent + "</" + name + ">" + lineEnd
    }

    /// `<name attributes>value</name>`, or `<name attributes/>` without a value; attributes in
    /// the order of their names.
    public mutating func element(_ name: String, _ value: String? = nil, attributes: [String: String] = [:]) {
        element(name, value, orderedAttributes: Self.sorted(attributes))
    }

    /// `<name attributes>value</name>`, or `<name attributes/>` without a value; attributes in
    /// the order given.
    public mutating func element(_ name: String, _ value: String?, orderedAttributes attributes: [(String, String)]) {
        let start = indent + "<" + name + Self.attributes(attributes)
        guard let value else {
            text += start + "/>" + lineEnd
            return
        }
        text += start + ">" + Self.escaped(value, inAttribute: false) + "</" + name + ">" + lineEnd
    }

    private var indent: String { indented ? String(repeating: "  ", count: depth) : "" }

    private var lineEnd: String { indented ? "\n" : "" }

    private static func sorted(_ attributes: [String: String]) -> [(String, String)] {
        attributes.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    }

    private static func attributes(_ attributes: [(String, String)]) -> String {
        attributes.map { " \($0.0)=\"\(escaped($0.1, inAttribute: true))\"" }.joined()
    }

    /// Whether XML 1.0 can hold a character at all (its `Char` production): not the C0 controls
    /// other than tab, line feed and carriage return, and not U+FFFE or U+FFFF. (Surrogates,
    /// which it cannot hold either, are no Unicode scalars, so no Swift string has them.)
    public static func canHold(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x09, 0x0A, 0x0D: true
        case 0x00...0x1F, 0xFFFE, 0xFFFF: false
        default: true
        }
    }

    /// A value as element text or as an attribute value in double quotes: `&`, `<` and `>` (and
    /// `"` in attributes) as entities; characters XML cannot hold (``canHold(_:)``) left out;
    /// a carriage return as `&#13;` (a parser reads a raw one as a line feed), and in attributes
    /// tab and line feed as `&#9;` and `&#10;` (a parser reads raw ones as spaces), so that a
    /// parser reads back exactly the characters that could be held.
    public static func escaped(_ value: String, inAttribute: Bool) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where inAttribute: result += "&quot;"
            case "\r": result += "&#13;"
            case "\t" where inAttribute: result += "&#9;"
            case "\n" where inAttribute: result += "&#10;"
            case _ where !canHold(scalar): continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
