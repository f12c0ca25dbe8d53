import Foundation

/// Outside XML (GPX tracks, podcast feeds) made safe for FoundationXML's parser before it sees
/// it. libxml2 reads many encodings (UTF-16, UTF-7, EBCDIC …) and, as FoundationXML sets it up,
/// expands the entities a DTD declares; a notation or unparsed entity declaration even crashes
/// FoundationXML on Linux. So the document is decoded here (UTF-8, UTF-16 with or without a byte
/// order mark, ISO-8859-1, Windows-1251 or Windows-1252, as its byte order mark or declaration
/// says), refused when its prolog holds a DOCTYPE, and handed to the parser as UTF-8 with a
/// declaration that says so: the parser reads exactly the text that was checked. Processing
/// instructions without data (`<?name?>`) are left out: FoundationXML crashes on them (found by
/// Fuzz/FuzzRSS), and GPX and RSS give them no meaning.
public enum XMLInput {
    /// Why a document is not read, in words for the person who sent it.
    public struct Refused: Error, Sendable, Equatable, CustomStringConvertible {
        public var reason: String
        public var description: String { reason }
    }

    /// The document as UTF-8 without a document type declaration.
    public static func prepared(_ data: Data) throws(Refused) -> Data {
        let text = try decoded(data)
        try checkProlog(text)
        return withoutEmptyInstructions(Array(withUTF8Declaration(text).utf8))
    }

    // MARK: Encoding

    static func decoded(_ data: Data) throws(Refused) -> String {
        let bytes = [UInt8](data.prefix(4))
        func decode(_ body: Data, _ encoding: String.Encoding, _ name: String) throws(Refused) -> String {
            guard let text = String(data: body, encoding: encoding) else {
                throw Refused(reason: "The file is not valid \(name).")
            }
            return text
        }
        if bytes.starts(with: [0x00, 0x00, 0xFE, 0xFF]) || bytes.starts(with: [0xFF, 0xFE, 0x00, 0x00]) {
            throw Refused(reason: "The file is in UTF-32, which Campus does not read; save it as UTF-8.")
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { return try decode(data.dropFirst(3), .utf8, "UTF-8") }
        if bytes.starts(with: [0xFE, 0xFF]) { return try decode(data.dropFirst(2), .utf16BigEndian, "UTF-16") }
        if bytes.starts(with: [0xFF, 0xFE]) { return try decode(data.dropFirst(2), .utf16LittleEndian, "UTF-16") }
        if bytes.starts(with: [0x00, 0x3C, 0x00, 0x3F]) { return try decode(data, .utf16BigEndian, "UTF-16") }
        if bytes.starts(with: [0x3C, 0x00, 0x3F, 0x00]) { return try decode(data, .utf16LittleEndian, "UTF-16") }
        let declared = declaredEncoding(data)
        switch declared?.lowercased() {
        case nil, "utf-8", "utf8", "us-ascii", "ascii": return try decode(data, .utf8, "UTF-8")
        case "iso-8859-1", "latin1", "iso_8859-1", "l1": return try decode(data, .isoLatin1, "ISO-8859-1")
        case "windows-1251", "cp1251": return try decode(data, .windowsCP1251, "Windows-1251")
        case "windows-1252", "cp1252": return try decode(data, .windowsCP1252, "Windows-1252")
        case .some:
            throw Refused(
                reason:
                    "The file says it is encoded as \((declared ?? "").prefix(40)); Campus reads UTF-8, UTF-16, ISO-8859-1, "
                    + "Windows-1251 and Windows-1252. Save it as UTF-8.")
        }
    }

    /// The `encoding` of an XML declaration at the start of an ASCII-compatible document.
    static func declaredEncoding(_ data: Data) -> String? {
        let head = data.prefix(300)
        guard head.starts(with: Array("<?xml".utf8)), head.count > 5,
            [0x20, 0x09, 0x0A, 0x0D].contains(head[head.startIndex + 5]),
            let end = head.firstRange(of: Array("?>".utf8))
        else {
            return nil
        }
        let declaration = String(decoding: head[head.startIndex..<end.lowerBound], as: UTF8.self)
        guard let range = declaration.range(of: "encoding") else { return nil }
        var rest = declaration[range.upperBound...].drop { $0 == " " || $0 == "=" || $0 == "\t" }
        guard let quote = rest.first, quote == "\"" || quote == "'" else { return nil }
        rest = rest.dropFirst()
        return String(rest.prefix { $0 != quote })
    }

    // MARK: Prolog

    /// Refuses a document whose prolog (what comes before the root element: the declaration,
    /// comments, processing instructions) holds anything that starts with `<!` other than a
    /// comment, that is a DOCTYPE. A DOCTYPE can stand nowhere else.
    static func checkProlog(_ text: String) throws(Refused) {
        var rest = Substring(text)
        while true {
            rest = rest.drop { $0.isWhitespace }
            if rest.hasPrefix("<?") {
                guard let end = rest.range(of: "?>") else { return }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!--") {
                guard let end = rest.range(of: "-->") else { return }
                rest = rest[end.upperBound...]
            } else if rest.hasPrefix("<!") {
                throw Refused(
                    reason: "The file declares a DOCTYPE (a DTD); neither GPX nor RSS needs one, so it is not read.")
            } else {
                return
            }
        }
    }

    /// The bytes without processing instructions that have no data (`<?name?>`, `<?name  ?>`,
    /// `<??>`). Comments and CDATA sections are passed over as they are.
    static func withoutEmptyInstructions(_ bytes: [UInt8]) -> Data {
        let lessThan = UInt8(ascii: "<")
        var output = Data()
        output.reserveCapacity(bytes.count)
        var copied = 0
        var index = 0
        func starts(_ prefix: String, at position: Int) -> Bool {
            var at = position
            for byte in prefix.utf8 {
                guard at < bytes.count, bytes[at] == byte else { return false }
                at += 1
            }
            return true
        }
        func find(_ end: String, from position: Int) -> Int? {
            let first = end.utf8.first ?? 0
            var at = position
            while at < bytes.count {
                if bytes[at] == first, starts(end, at: at) { return at }
                at += 1
            }
            return nil
        }
        while index < bytes.count {
            guard bytes[index] == lessThan else {
                index += 1
                continue
            }
            if starts("<!--", at: index) {
                index = (find("-->", from: index + 4) ?? bytes.count - 3) + 3
            } else if starts("<![CDATA[", at: index) {
                index = (find("]]>", from: index + 9) ?? bytes.count - 3) + 3
            } else if starts("<?", at: index), let end = find("?>", from: index + 2) {
                var at = index + 2
                while at < end, !isSpace(bytes[at]) { at += 1 }
                while at < end, isSpace(bytes[at]) { at += 1 }
                if at == end {
                    output.append(contentsOf: bytes[copied..<index])
                    copied = end + 2
                }
                index = end + 2
            } else {
                index += 1
            }
        }
        if copied < bytes.count { output.append(contentsOf: bytes[copied...]) }
        return output
    }

    private static func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }

    /// The text with an XML declaration that says UTF-8 (the parser is given UTF-8 bytes).
    static func withUTF8Declaration(_ text: String) -> String {
        let declaration = #"<?xml version="1.0" encoding="UTF-8"?>"#
        let isDeclaration = text.hasPrefix("<?xml") && text.dropFirst(5).first?.isWhitespace == true
        guard isDeclaration, let end = text.range(of: "?>") else { return text }
        return declaration + text[end.upperBound...]
    }
}
