import CampusTestSupport
import Foundation
import Testing

@testable import Formats

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// Every XML Campus writes (podcast feeds, Subsonic answers, charts) goes through ``XMLWriter``:
/// whatever the values hold, a parser reads the document without an error and gets back every
/// character XML 1.0 can hold, exactly (issue 35: a Subsonic error echoing `%01` was not XML).
@Suite struct XMLWriterTests {
    /// Scalars a writer must think about, often: controls, markup, line breaks, non-characters.
    static let awkward: [UInt32] = [
        0x00, 0x01, 0x08, 0x09, 0x0A, 0x0B, 0x0C, 0x0D, 0x1B, 0x1F, 0x20, 0x22, 0x26, 0x27, 0x3C, 0x3E, 0x5D, 0x7F,
        0x85, 0x9F, 0xA0, 0x2028, 0x202E, 0xD7FF, 0xE000, 0xFDD0, 0xFEFF, 0xFFFD, 0xFFFE, 0xFFFF, 0x1_0000,
        0x1_FFFE, 0x1_F600, 0x10_FFFF,
    ]

    /// A random string of up to 40 scalars from every part of Unicode (no surrogates: they are no
    /// scalars, so no Swift string holds one).
    static func randomText(_ generator: inout SeededGenerator) -> String {
        var text = String.UnicodeScalarView()
        for _ in 0..<Int(generator.next() % 41) {
            while true {
                let value: UInt32 =
                    switch generator.next() % 5 {
                    case 0: awkward[Int(generator.next() % UInt64(awkward.count))]
                    case 1: UInt32(generator.next() % 0x80)
                    case 2: UInt32(generator.next() % 0x800)
                    case 3: UInt32(generator.next() % 0x1_0000)
                    default: UInt32(generator.next() % 0x11_0000)
                    }
                if let scalar = Unicode.Scalar(value) {
                    text.append(scalar)
                    break
                }
            }
        }
        return String(text)
    }

    /// What a parser reads: each element's attributes and text, and every error it reports.
    final class Reading: NSObject, XMLParserDelegate {
        var attributes: [String: [String: String]] = [:]
        var texts: [String: String] = [:]
        var errors: [String] = []
        private var open: [String] = []

        func parser(
            _ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            open.append(elementName)
            self.attributes[elementName] = attributes
        }

        func parser(
            _ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName: String?
        ) {
            _ = open.popLast()
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if let element = open.last { texts[element, default: ""] += string }
        }

        func parser(_ parser: XMLParser, foundIgnorableWhitespace whitespaceString: String) {
            if let element = open.last { texts[element, default: ""] += whitespaceString }
        }

        func parser(_ parser: XMLParser, parseErrorOccurred parseError: any Error) {
            errors.append((parseError as NSError).localizedDescription)
        }
    }

    static func read(_ text: String) -> (parsed: Bool, reading: Reading) {
        let reading = Reading()
        let parser = XMLParser(data: Data(text.utf8))
        parser.delegate = reading
        let parsed = parser.parse()
        return (parsed && parser.parserError == nil && reading.errors.isEmpty, reading)
    }

    /// The characters XML can hold, as a parser gives them back.
    static func held(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter(XMLWriter.canHold)))
    }

    @Test func randomTextIsWellFormedAndReadBackExactly() {
        var generator = SeededGenerator(state: 35)
        for round in 0..<400 {
            let value = Self.randomText(&generator)
            let shown = value.unicodeScalars.map { String($0.value, radix: 16) }.joined(separator: " ")
            // Text beside child elements, on one line (as Subsonic answers are written)…
            var flat = XMLWriter(indented: false)
            flat.open("root", attributes: [("a", value), ("b", "x")])
            flat.characters(value)
            flat.element("child", value, orderedAttributes: [("c", value)])
            flat.close("root")
            // …and indented, as feeds are.
            var indented = XMLWriter()
            indented.open("feed", ["title": value])
            indented.element("item", value, attributes: ["guid": value])
            indented.element("empty", attributes: ["url": value])
            indented.close("feed")
            let expected = Self.held(value)
            let (flatParsed, flatReading) = Self.read(flat.text)
            #expect(flatParsed, "round \(round): \(shown): \(flatReading.errors)")
            #expect(flatReading.attributes["root"]?["a"] ?? "" == expected, "round \(round): \(shown)")
            #expect(flatReading.texts["root"] ?? "" == expected, "round \(round): \(shown)")
            #expect(flatReading.texts["child"] ?? "" == expected, "round \(round): \(shown)")
            #expect(flatReading.attributes["child"]?["c"] ?? "" == expected, "round \(round): \(shown)")
            let (parsed, reading) = Self.read(indented.text)
            #expect(parsed, "round \(round): \(shown): \(reading.errors)")
            #expect(reading.attributes["feed"]?["title"] ?? "" == expected, "round \(round): \(shown)")
            #expect(reading.texts["item"] ?? "" == expected, "round \(round): \(shown)")
            #expect(reading.attributes["item"]?["guid"] ?? "" == expected, "round \(round): \(shown)")
            #expect(reading.attributes["empty"]?["url"] ?? "" == expected, "round \(round): \(shown)")
        }
    }

    @Test func whatXMLCannotHoldIsLeftOutAndLineBreaksSurvive() {
        #expect(XMLWriter.escaped("a\u{1}b\u{B}c\u{FFFE}d\u{FFFF}e\u{0}", inAttribute: false) == "abcde")
        #expect(XMLWriter.escaped("<a & \"b\">", inAttribute: true) == "&lt;a &amp; &quot;b&quot;&gt;")
        #expect(XMLWriter.escaped("\"quoted\"", inAttribute: false) == "\"quoted\"")
        #expect(XMLWriter.escaped("1\t2\n3\r4", inAttribute: true) == "1&#9;2&#10;3&#13;4")
        #expect(XMLWriter.escaped("1\t2\n3\r4", inAttribute: false) == "1\t2\n3&#13;4")
        #expect(XMLWriter.escaped("]]>", inAttribute: false) == "]]&gt;")
        // Characters XML holds stay as they are: C1 controls, non-characters other than U+FFFE/U+FFFF.
        let kept = String(String.UnicodeScalarView([0x85, 0xFDD0, 0x1FFFE, 0x1F600].compactMap(Unicode.Scalar.init)))
        #expect(XMLWriter.escaped(kept, inAttribute: true) == kept)
    }
}
