import Foundation
import Localization

/// Outside XML (GPX tracks, podcast feeds) made safe for FoundationXML's parser before it sees
/// it. libxml2 reads many encodings (UTF-16, UTF-7, EBCDIC …) and, as FoundationXML sets it up,
/// expands the entities a DTD declares; a notation or unparsed entity declaration even crashes
/// FoundationXML on Linux. So the document is decoded here (UTF-8, UTF-16 with or without a byte
/// order mark, ISO-8859-1, Windows-1251 or Windows-1252, as its first bytes or its declaration
/// say, the way XML 1.0's appendix F detects them: UTF-32 and EBCDIC are refused, with or without
/// a byte order mark), refused when it holds a character XML does not allow (a NUL is what a
/// document in another encoding read as UTF-8 shows), and handed to the parser as UTF-8 with a
/// declaration that says so, or none: the parser reads exactly the text that was checked.
/// Processing instructions are left out: FoundationXML crashes on some (found by Fuzz/FuzzRSS),
/// and GPX and RSS give them no meaning. Then what the parser will read is checked: a DOCTYPE in
/// its prolog is refused, and so are elements with more attributes or deeper nesting than any
/// GPX or RSS has (libxml2 looks for a repeated attribute in quadratic time: 300,000 attributes
/// on one element cost 39 s), so that reading costs time in proportion to the document.
public enum XMLInput {
    /// Why a document is not read, in words for the person who sent it.
    public struct Refused: PhrasedError, Sendable, Equatable {
        /// The words, and what they were made from (a translation looks them up).
        public var phrase: Phrase

        /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
        /// are `values`, as for a ``FieldProblem``.
        public init(detail message: String, _ values: [String: String] = [:]) {
            self.phrase = Phrase(message, values)
        }

        public init(_ phrase: Phrase) { self.phrase = phrase }
    }

    /// The document as UTF-8 without a document type declaration.
    public static func prepared(_ data: Data) throws(Refused) -> Data {
        let text = try decoded(data)
        try checkCharacters(text)
        let declared = withUTF8Declaration(text)
        let bytes = withoutInstructions(Array(declared.utf8), keepingDeclaration: declared.hasPrefix(utf8Declaration))
        try checkProlog(bytes)
        try checkMarkup(bytes)
        return Data(bytes)
    }

    // MARK: Encoding

    static func decoded(_ data: Data) throws(Refused) -> String {
        let bytes = [UInt8](data.prefix(4))
        func decode(_ body: Data, _ encoding: String.Encoding, _ name: String) throws(Refused) -> String {
            guard let text = String(data: body, encoding: encoding) else {
                throw Refused(detail: "The file is not valid {encoding}.", ["encoding": name])
            }
            return text
        }
        // UTF-32 in its four byte orders, with a byte order mark or starting with `<` (appendix F).
        let utf32: [[UInt8]] = [
            [0x00, 0x00, 0xFE, 0xFF], [0xFF, 0xFE, 0x00, 0x00], [0x00, 0x00, 0xFF, 0xFE], [0xFE, 0xFF, 0x00, 0x00],
            [0x00, 0x00, 0x00, 0x3C], [0x3C, 0x00, 0x00, 0x00], [0x00, 0x00, 0x3C, 0x00], [0x00, 0x3C, 0x00, 0x00],
        ]
        if utf32.contains(where: { bytes.starts(with: $0) }) {
            throw Refused(detail: "The file is in UTF-32, which Campus does not read; save it as UTF-8.")
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
                detail:
                    "The file says it is encoded as {encoding}; Campus reads UTF-8, UTF-16, ISO-8859-1, Windows-1251 and Windows-1252. Save it as UTF-8.",
                ["encoding": String((declared ?? "").prefix(40))])
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
    /// comments, white space) holds anything that starts with `<!` other than a comment, that is a
    /// DOCTYPE. A DOCTYPE can stand nowhere else. It reads the bytes the parser will read, after
    /// the instructions are left out (one that hid `<!DOCTYPE` from a check before that would
    /// be gone by then), and ends a comment where libxml2 does: at the first `-->` after `<!--`.
    static func checkProlog(_ bytes: [UInt8]) throws(Refused) {
        var index = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while index < bytes.count {
            let byte = bytes[index]
            if [0x20, 0x09, 0x0A, 0x0D].contains(byte) {
                index += 1
            } else if bytes.startsWith("<?", at: index) {
                guard let end = bytes.position(of: "?>", from: index + 2) else { return }
                index = end + 2
            } else if bytes.startsWith("<!--", at: index) {
                guard let end = bytes.position(of: "-->", from: index + 4) else { return }
                index = end + 3
            } else if bytes.startsWith("<!", at: index) {
                throw Refused(
                    detail: "The file declares a DOCTYPE (a DTD); neither GPX nor RSS needs one, so it is not read.")
            } else {
                return
            }
        }
    }

    /// The bytes without processing instructions: every `<?…?>` (to its first `?>`, as XML
    /// ends one) is left out, wherever it is, except the declaration that `prepared` puts first.
    /// FoundationXML crashes on an instruction without data (`<?name?>`), and libxml2, reading
    /// past a broken one, finds instructions where a reader of the text would not (Fuzz/FuzzRSS
    /// found both); GPX and RSS give instructions no meaning. Where removing one brings a `<` and
    /// a `?` together, that `<?` is an instruction too and goes the same way. A `<?` with no `?>`
    /// after it stays: no instruction can end there.
    static func withoutInstructions(_ bytes: [UInt8], keepingDeclaration: Bool) -> [UInt8] {
        let lessThan = UInt8(ascii: "<")
        let question = UInt8(ascii: "?")
        let greaterThan = UInt8(ascii: ">")
        var output = [UInt8]()
        output.reserveCapacity(bytes.count)
        /// Where the `?>` that ends an instruction whose body starts at `position` is.
        func end(from position: Int) -> Int? {
            var at = position
            while at + 1 < bytes.count {
                if bytes[at] == question, bytes[at + 1] == greaterThan { return at }
                at += 1
            }
            return nil
        }
        var index = 0
        if keepingDeclaration, let first = end(from: 2) {
            output.append(contentsOf: bytes[0..<first + 2])
            index = first + 2
        }
        let kept = output.count
        while index < bytes.count {
            let byte = bytes[index]
            if byte == lessThan, index + 1 < bytes.count, bytes[index + 1] == question, let close = end(from: index + 2)
            {
                index = close + 2
            } else if byte == question, output.count > kept, output.last == lessThan, let close = end(from: index + 1) {
                output.removeLast()
                index = close + 2
            } else {
                output.append(byte)
                index += 1
            }
        }
        return output
    }

    /// The text with an XML declaration that says UTF-8 (the parser is given UTF-8 bytes).
    static let utf8Declaration = #"<?xml version="1.0" encoding="UTF-8"?>"#

    static func withUTF8Declaration(_ text: String) -> String {
        let declaration = utf8Declaration
        let isDeclaration = text.hasPrefix("<?xml") && text.dropFirst(5).first?.isWhitespace == true
        guard isDeclaration, let end = text.range(of: "?>") else { return text }
        return declaration + text[end.upperBound...]
    }
}
