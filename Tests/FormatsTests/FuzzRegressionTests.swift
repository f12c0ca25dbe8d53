import Foundation
import Testing

@testable import Formats

/// Every input the fuzzers (Fuzz/, scripts/fuzz) found a crash with, kept in Fuzz/Regressions and
/// read here the way the fuzzer read it: the reader may refuse it, never crash.
@Suite struct FuzzRegressionTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Fuzz/Regressions")

    static func inputs(_ fuzzer: String) -> [String] {
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(fuzzer).path))
        return (files ?? []).sorted().map { "\(fuzzer)/\($0)" }
    }

    static func data(_ name: String) throws -> Data { try Data(contentsOf: folder.appendingPathComponent(name)) }

    @Test(arguments: inputs("FuzzRSS") + inputs("FuzzGPX"))
    func xmlReaders(_ name: String) throws {
        let data = try Self.data(name)
        _ = try? RSS.read(data)
        _ = try? GPX.read(data)
    }

    /// A processing instruction without data crashed FoundationXML (a NULL it does not expect),
    /// also one libxml2 found inside a broken one; so every instruction is left out, even in
    /// comments and CDATA, where a reader of the text would not see one.
    @Test func processingInstructionsAreLeftOut() throws {
        let text =
            #"<?xml version="1.0"?><?empty?><rss><?also   ?><channel><title>T</title>"#
            + #"<!-- <?gone?> --><description><![CDATA[a <?gone?>b]]></description>"#
            + #"<item><enclosure url="https://x.example/1.mp3"/></item></channel></rss>"#
        let prepared = String(decoding: try XMLInput.prepared(Data(text.utf8)), as: UTF8.self)
        #expect(!prepared.contains("<?empty?>") && !prepared.contains("<?also   ?>") && !prepared.contains("<?gone?>"))
        #expect(prepared.contains("<!--  -->") && prepared.contains("<![CDATA[a b]]>"))
        #expect(try RSS.read(Data(text.utf8)).description == "a b")
        let gpx =
            #"<?xml-stylesheet href="a.xsl"?><gpx><?x?><trk><trkseg><trkpt lat="1" lon="1"/>"#
            + #"<trkpt lat="1.1" lon="1.1"/></trkseg></trk></gpx>"#
        #expect(try GPX.read(Data(gpx.utf8)).pointCount == 2)
    }
}

extension FuzzRegressionTests {
    /// Foundation's DateFormatter trapped on this text as a pubDate (Fuzz/FuzzDates).
    @Test(arguments: inputs("FuzzDates"))
    func feedDates(_ name: String) throws {
        let text = String(decoding: try Self.data(name), as: UTF8.self)
        #expect(RSS.date(text) == nil)
        #expect(GPX.time(text) == nil)
    }
}

extension FuzzRegressionTests {
    /// A subject with 94,624 groups kept the seed 003 reader busy for minutes (Fuzz/FuzzKMA).
    @Test(arguments: inputs("FuzzKMA"))
    func studyPlans(_ name: String) throws {
        let data = try Self.data(name)
        let split = data.firstIndex(of: 0) ?? data.startIndex + data.count / 2
        #expect(throws: (any Error).self) {
            try KMASchedule.read(subjects: data[..<split], schedule: data[split...].dropFirst(), minutes: 80)
        }
    }
}
