import Foundation
import Testing

@testable import Formats

/// Outside XML is decoded and checked before FoundationXML (libxml2) sees it (issue 10): a DTD is
/// refused in every encoding libxml2 would read, and the parser gets UTF-8 only.
@Suite struct XMLInputTests {
    static let bomb =
        #"<!DOCTYPE gpx [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>"#
    static func gpx(_ prolog: String = "", encoding: String = "UTF-8", name: String = "&b;") -> String {
        #"<?xml version="1.0" encoding="\#(encoding)"?>\#(prolog)<gpx version="1.1" creator="t"><trk><name>\#(name)</name><trkseg>"#
            + #"<trkpt lat="53.9" lon="27.5"/><trkpt lat="53.91" lon="27.51"/></trkseg></trk></gpx>"#
    }

    static func utf16(_ text: String, bigEndian: Bool, bom: Bool) -> Data {
        var data = Data(bom ? (bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]) : [])
        for unit in text.utf16 {
            let bytes = bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)]
            data.append(contentsOf: bytes)
        }
        return data
    }

    @Test(arguments: [(false, true), (true, true), (false, false), (true, false)])
    func aDoctypeIsRefusedInUTF16(_ bigEndian: Bool, _ bom: Bool) {
        let data = Self.utf16(Self.gpx(Self.bomb, encoding: "UTF-16"), bigEndian: bigEndian, bom: bom)
        #expect(throws: XMLInput.Refused.self) { try XMLInput.prepared(data) }
        #expect { try GPX.read(data) } throws: { ($0 as? GPXError)?.description.contains("DOCTYPE") == true }
    }

    static func utf32(_ text: String, order: [Int], bom: Bool) -> Data {
        var data = Data()
        for scalar in (bom ? "\u{FEFF}" : "").unicodeScalars + text.unicodeScalars {
            let value = scalar.value
            let bigEndian = [
                UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF),
            ]
            data.append(contentsOf: order.map { bigEndian[$0] })
        }
        return data
    }

    /// Issue 35: UTF-32 without a byte order mark read as UTF-8 passed the DOCTYPE check (its
    /// NULs hid it), and libxml2 then read it as UTF-32 and expanded its entities.
    @Test(arguments: [[0, 1, 2, 3], [3, 2, 1, 0], [1, 0, 3, 2], [2, 3, 0, 1]], [false, true])
    func utf32IsRefusedInEveryByteOrder(_ order: [Int], _ bom: Bool) {
        let text =
            #"<!DOCTYPE gpx [<!ENTITY lat "10.0">]><gpx><trk><trkseg><trkpt lat="&lat;" lon="1"/>"#
            + #"<trkpt lat="1" lon="1"/></trkseg></trk></gpx>"#
        let data = Self.utf32(text, order: order, bom: bom)
        #expect { try GPX.read(data) } throws: { ($0 as? GPXError)?.description.contains("UTF-32") == true }
        #expect(throws: FeedError.self) { try RSS.read(data) }
    }

    @Test(arguments: [
        ("<gpx>\u{0}</gpx>", "U+0000"), ("<gpx>\n\n\u{1}</gpx>", "Line 3"), ("<gpx a='\u{FFFE}'/>", "U+FFFE"),
        ("\u{0}<\u{0}!DOCTYPE x>", "U+0000"),
    ])
    func charactersXMLDoesNotAllowAreRefused(_ text: String, _ words: String) {
        #expect { try XMLInput.prepared(Data(text.utf8)) } throws: {
            ($0 as? XMLInput.Refused)?.description.contains(words) == true
        }
    }

    /// The prolog is checked as the parser reads it: a comment ends at the first `-->` after
    /// `<!--` (not at `<!-->`), and an instruction that hid a DOCTYPE is gone before the check.
    @Test(arguments: [
        "<!-->x --><!DOCTYPE gpx [<!ENTITY b \"x\">]>", "<?>x?><!DOCTYPE gpx [<!ENTITY b \"x\">]>",
        "<!-- a --><!-- b -->\n<!DOCTYPE gpx>", "<?p <!-- ?><!DOCTYPE gpx> -->",
    ])
    func aDoctypeHiddenFromTheCheckIsFound(_ prolog: String) {
        let text =
            prolog + #"<gpx><trk><name>&b;</name><trkseg><trkpt lat="1" lon="1"/>"#
            + #"<trkpt lat="1" lon="1"/></trkseg></trk></gpx>"#
        #expect { try XMLInput.prepared(Data(text.utf8)) } throws: {
            ($0 as? XMLInput.Refused)?.description.contains("DOCTYPE") == true
        }
    }

    /// Issue 35: libxml2 looks for a repeated attribute in quadratic time (300,000 attributes on
    /// one track point took 39 s), so an element may have 256 at most, and nesting goes 100 deep.
    @Test func elementsWithTooManyAttributesOrTooDeepAreRefused() throws {
        func gpx(attributes: Int, depth: Int = 0) -> Data {
            let extra = (0..<attributes).map { #" a\#($0)="\#($0)""# }.joined()
            let nested = String(repeating: "<e>", count: depth) + String(repeating: "</e>", count: depth)
            return Data(
                (#"<gpx><trk><trkseg><trkpt lat="1" lon="1"\#(extra)/><trkpt lat="1.1" lon="1"/>"#
                    + "</trkseg></trk><extensions>\(nested)</extensions></gpx>").utf8)
        }
        #expect(try GPX.read(gpx(attributes: 254)).pointCount == 2)
        #expect(try GPX.read(gpx(attributes: 0, depth: 98)).pointCount == 2)
        for data in [gpx(attributes: 255), gpx(attributes: 300_000)] {
            #expect { try GPX.read(data) } throws: {
                ($0 as? GPXError)?.description.contains("more than 256 attributes") == true
            }
        }
        #expect { try GPX.read(gpx(attributes: 0, depth: 99)) } throws: {
            ($0 as? GPXError)?.description.contains("nested more than 100 deep") == true
        }
        // Quotes, comments and CDATA are read as the parser reads them: no attributes there.
        let quoted = Data(
            (#"<gpx creator="a=b='c'" version='1=1'><!-- <x a=1 b=2> --><trk><name><![CDATA[<x a=1>]]></name>"#
                + #"<trkseg><trkpt lat="1" lon="1"/><trkpt lat="1.1" lon="1"/></trkseg></trk></gpx>"#).utf8)
        #expect(try GPX.read(quoted).pointCount == 2)
    }

    @Test func utf16WithoutADoctypeIsReadAsUTF8() throws {
        let data = Self.utf16(Self.gpx(encoding: "UTF-16", name: "Утро"), bigEndian: false, bom: true)
        let prepared = try XMLInput.prepared(data)
        #expect(String(decoding: prepared.prefix(38), as: UTF8.self) == #"<?xml version="1.0" encoding="UTF-8"?>"#)
        #expect(try GPX.read(data).name == "Утро")
    }

    @Test(arguments: [
        "<!DOCTYPE gpx>", "<!-- a comment --><!DOCTYPE gpx SYSTEM \"http://x/y.dtd\">",
        "<?pi data?>\n<!doctype gpx>", "<!NOTATION n SYSTEM \"x\">", "<!ENTITY a \"b\">",
    ])
    func anythingLikeADTDInTheProlog(_ prolog: String) {
        #expect(throws: XMLInput.Refused.self) { try XMLInput.prepared(Data(Self.gpx(prolog).utf8)) }
    }

    @Test func aDoctypeInsideTheDocumentIsJustText() throws {
        // After the root element starts, `<!DOCTYPE` can only be text in a CDATA section.
        let text =
            #"<rss><channel><title>T</title><description><![CDATA[<!DOCTYPE html><p>hi</p>]]></description>"#
            + #"<item><enclosure url="https://x.example/1.mp3"/></item></channel></rss>"#
        let feed = try RSS.read(Data(text.utf8))
        #expect(feed.description == "<!DOCTYPE html><p>hi</p>")
    }

    @Test func declaredSingleByteEncodingsAreDecoded() throws {
        let text =
            #"<?xml version="1.0" encoding="windows-1251"?><gpx><trk><name>Пробег</name><trkseg>"#
            + #"<trkpt lat="53.9" lon="27.5"/><trkpt lat="53.91" lon="27.51"/></trkseg></trk></gpx>"#
        let data = try #require(text.data(using: .windowsCP1251))
        #expect(try GPX.read(data).name == "Пробег")
    }

    @Test(arguments: ["UTF-7", "IBM037", "UTF-32", "x-unknown"])
    func otherEncodingsAreRefusedByName(_ encoding: String) {
        #expect { try XMLInput.prepared(Data(Self.gpx(encoding: encoding).utf8)) } throws: {
            ($0 as? XMLInput.Refused)?.description.contains(encoding) == true
        }
    }

    @Test func invalidUTF8IsRefusedBeforeTheParserSeesIt() {
        // FoundationXML traps on invalid UTF-8 in an attribute name; it never gets there.
        let data = Data(#"<?xml version="1.0"?><gpx "#.utf8) + Data([0xFF]) + Data(#"="1"></gpx>"#.utf8)
        #expect { try GPX.read(data) } throws: { ($0 as? GPXError)?.description.contains("UTF-8") == true }
    }

    @Test func aStylesheetInstructionIsNotTakenForTheDeclarationAndIsLeftOut() throws {
        let text = #"<?xml-stylesheet type="text/xsl" href="s.xsl"?><gpx/>"#
        #expect(String(decoding: try XMLInput.prepared(Data(text.utf8)), as: UTF8.self) == "<gpx/>")
    }

    @Test(arguments: [
        // Fuzz/Regressions/FuzzRSS: a broken instruction, and inside it one without data, which
        // libxml2 found after the broken one and FoundationXML crashed on.
        ("<?\r\r\r\r<?x0?>\n\r\t\r\r?>\no", "\n\r\t\r\r?>\no"),
        ("<a><?x?>b</a>", "<a>b</a>"),
        ("<a><<?p q?>?r?>b</a>", "<a>b</a>"),
        ("<a><!-- <?x?> --><![CDATA[<?y?>]]></a>", "<a><!--  --><![CDATA[]]></a>"),
        ("<a>1 <? 2</a>", "<a>1 <? 2</a>"),
    ])
    func instructionsAreLeftOutEverywhere(_ text: String, _ expected: String) throws {
        let declaration = #"<?xml version="1.0" encoding="UTF-8"?>"#
        #expect(String(decoding: try XMLInput.prepared(Data(text.utf8)), as: UTF8.self) == expected)
        #expect(
            String(decoding: try XMLInput.prepared(Data((#"<?xml version="1.0"?>"# + text).utf8)), as: UTF8.self)
                == declaration + expected)
        // And the parser reads what is left without crashing, whatever it makes of it.
        _ = try? RSS.read(Data(text.utf8))
    }

    @Test func feedsRefuseLocalEnclosuresAndImagesAndOverlongFields() {
        func feed(
            enclosure: String = "https://x.example/1.mp3", image: String = "https://x.example/c.jpg",
            title: String = "Talks"
        ) -> Data {
            Data(
                (#"<rss xmlns:itunes="http://www.itunes.com/dtds/podcast-1.0.dtd"><channel><title>\#(title)</title>"#
                    + #"<itunes:image href="\#(image)"/><item><title>One</title>"#
                    + #"<enclosure url="\#(enclosure)"/></item></channel></rss>"#).utf8)
        }
        #expect(throws: Never.self) { try RSS.read(feed()) }
        for (data, words) in [
            (feed(enclosure: "/srv/private/secret.mp3"), "The enclosure url of item 1 is not an http or https URL."),
            (feed(enclosure: "file:///etc/passwd"), "The enclosure url of item 1 is not an http or https URL."),
            (feed(image: "/srv/private/secret.png"), "The channel's image is not an http or https URL."),
            (feed(title: String(repeating: "T", count: 501)), "The channel's title has 501 characters; at most 500."),
            (feed(title: "A&#x7F;B"), "The channel's title contains a control character (U+007F)"),
        ] {
            #expect { try RSS.read(data) } throws: { ($0 as? FeedError)?.description.hasPrefix(words) == true }
        }
    }
}
