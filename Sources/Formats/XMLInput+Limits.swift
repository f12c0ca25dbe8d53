import InputRules

/// What outside XML may hold before the parser reads it: only characters XML allows, and
/// elements with as many attributes and as deep a nesting as any GPX track or RSS feed has.
extension XMLInput {
    /// The most attributes one element may have (namespace declarations included). A GPX track
    /// point has two, an RSS enclosure three, a feed's root a dozen namespaces at most.
    public static let maximumAttributes = 256
    /// The deepest nesting of elements read; GPX and RSS go five or six deep.
    public static let maximumDepth = 100

    /// Refuses a text with a character XML 1.0 does not allow (its `Char` production): C0
    /// controls other than tab, line feed and carriage return, and U+FFFE and U+FFFF. libxml2
    /// refuses them too, but only after it has read the prolog; a NUL is also what a document in
    /// UTF-32 or UTF-16 without a byte order mark looks like when it is read as UTF-8, and
    /// libxml2 would read such a document in its own encoding, past the checks made here.
    static func checkCharacters(_ text: String) throws(Refused) {
        var line = 1
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: line += 1
            case 0x09, 0x0D, 0x20...0xD7FF, 0xE000...0xFFFD, 0x10000...0x10FFFF: continue
            default:
                throw Refused(
                    detail: "Line {line} of the file holds a character XML does not allow ({codePoint}).",
                    ["line": String(line), "codePoint": TextRules.codePoint(scalar)])
            }
        }
    }

    /// Refuses bytes in which an element has more than ``maximumAttributes`` attributes, or
    /// elements nest deeper than ``maximumDepth``. It walks the markup once, as the parser will:
    /// comments, CDATA sections and declarations are passed over, and in a start tag an `=`
    /// outside quotes is an attribute. Whatever is not well-formed here the parser refuses.
    static func checkMarkup(_ bytes: [UInt8]) throws(Refused) {
        let lessThan = UInt8(ascii: "<")
        let greaterThan = UInt8(ascii: ">")
        var index = 0
        var depth = 0
        while let start = bytes[index...].firstIndex(of: lessThan) {
            if bytes.startsWith("<!--", at: start) {
                guard let end = bytes.position(of: "-->", from: start + 4) else { return }
                index = end + 3
            } else if bytes.startsWith("<![CDATA[", at: start) {
                guard let end = bytes.position(of: "]]>", from: start + 9) else { return }
                index = end + 3
            } else if bytes.startsWith("<!", at: start) || bytes.startsWith("<?", at: start)
                || bytes.startsWith("</", at: start)
            {
                guard let end = bytes[(start + 1)...].firstIndex(of: greaterThan) else { return }
                if bytes.startsWith("</", at: start) { depth -= 1 }
                index = end + 1
            } else {
                guard let (end, attributes) = startTag(bytes, from: start + 1) else { return }
                guard attributes <= maximumAttributes else {
                    throw Refused(
                        detail: "An element of the file has more than {maximum} attributes.",
                        ["maximum": String(maximumAttributes)])
                }
                if bytes[end - 1] != UInt8(ascii: "/") { depth += 1 }
                guard depth <= maximumDepth else {
                    throw Refused(
                        detail: "The file's elements are nested more than {maximum} deep.",
                        ["maximum": String(maximumDepth)])
                }
                index = end + 1
            }
        }
    }

    /// Where the start tag whose name begins at `position` ends (its `>`), and how many
    /// attributes it has; counting stops past ``maximumAttributes``. Nil when it does not end.
    private static func startTag(_ bytes: [UInt8], from position: Int) -> (end: Int, attributes: Int)? {
        var quote: UInt8?
        var attributes = 0
        var index = position
        while index < bytes.count {
            let byte = bytes[index]
            if let open = quote {
                if byte == open { quote = nil }
            } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
                quote = byte
            } else if byte == UInt8(ascii: "=") {
                attributes += 1
                if attributes > maximumAttributes { return (index, attributes) }
            } else if byte == UInt8(ascii: ">") {
                return (index, attributes)
            }
            index += 1
        }
        return nil
    }
}

extension [UInt8] {
    /// Whether the ASCII `text` stands at `index`.
    func startsWith(_ text: StaticString, at index: Int) -> Bool {
        let count = text.utf8CodeUnitCount
        guard index >= 0, index + count <= self.count else { return false }
        return text.withUTF8Buffer { pattern in
            for offset in 0..<count where self[index + offset] != pattern[offset] { return false }
            return true
        }
    }

    /// Where the ASCII `text` next stands at or after `index`.
    func position(of text: StaticString, from index: Int) -> Int? {
        guard let first = text.withUTF8Buffer({ $0.first }) else { return nil }
        var at = index
        while at < count, let found = self[at...].firstIndex(of: first) {
            if startsWith(text, at: found) { return found }
            at = found + 1
        }
        return nil
    }
}
