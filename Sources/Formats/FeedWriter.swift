import Foundation

/// XML written as text, indented: elements with text or attributes, every value escaped, and
/// characters XML 1.0 cannot hold (control characters other than tab and line breaks,
/// U+FFFE and U+FFFF) left out.
struct FeedWriter {
    private(set) var text = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
    private var depth = 0

    mutating func open(_ name: String, _ attributes: [String: String] = [:]) {
        text += indent + "<" + name + Self.attributes(attributes) + ">\n"
        depth += 1
    }

    mutating func close(_ name: String) {
        depth -= 1
        text += indent + "</" + name + ">\n"
    }

    /// `<name attributes>value</name>`, or `<name attributes/>` without a value.
    mutating func element(_ name: String, _ value: String? = nil, attributes: [String: String] = [:]) {
        let start = indent + "<" + name + Self.attributes(attributes)
        guard let value else {
            text += start + "/>\n"
            return
        }
        text += start + ">" + Self.escaped(value, quotes: false) + "</" + name + ">\n"
    }

    private var indent: String { String(repeating: "  ", count: depth) }

    private static func attributes(_ attributes: [String: String]) -> String {
        attributes.sorted { $0.key < $1.key }.map { " \($0.key)=\"\(escaped($0.value, quotes: true))\"" }.joined()
    }

    static func escaped(_ value: String, quotes: Bool) -> String {
        var result = ""
        result.reserveCapacity(value.utf8.count)
        for scalar in value.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"" where quotes: result += "&quot;"
            case "\t", "\n", "\r": result.unicodeScalars.append(scalar)
            case _ where scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF: continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
