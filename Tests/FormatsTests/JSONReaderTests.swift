import CampusTestSupport
import Foundation
import Testing

@testable import Formats

/// The reader IIS files are read with, checked against Foundation's `JSONSerialization` (an
/// independent parser) on the real fixtures and on the corners of the grammar.
@Suite struct JSONReaderTests {
    /// Reads any document into Foundation's shapes, as JSONSerialization does.
    static func tree(_ reader: inout JSONReader) throws -> Any {
        switch reader.next {
        case .null:
            _ = try reader.readNull()
            return NSNull()
        case .object:
            try reader.enterObject()
            var object: [String: Any] = [:]
            while let key = try reader.nextKey() { object[key.string] = try tree(&reader) }
            return object
        case .array:
            try reader.enterArray()
            var array: [Any] = []
            while try reader.nextElement() { array.append(try tree(&reader)) }
            return array
        case .string: return try reader.requireString()
        case .bool: return try reader.readBool() ?? false
        case .number: return try reader.requireInt()
        }
    }

    static func read(_ json: String) throws -> Any {
        var reader = try JSONReader(Data(json.utf8))
        let value = try tree(&reader)
        try reader.finish()
        return value
    }

    /// What `body` threw, as a person reads it.
    static func message(_ body: () throws -> Any?) -> String? {
        do {
            _ = try body()
            return nil
        } catch {
            return String(describing: error)
        }
    }

    @Test func everyFixtureReadsAsFoundationReadsIt() throws {
        for file in Fixtures.iisFiles {
            let data = try Fixtures.data("iis/\(file)")
            var reader = try JSONReader(data)
            let mine = try Self.tree(&reader)
            try reader.finish()
            let foundation = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            let options: JSONSerialization.WritingOptions = [.sortedKeys, .fragmentsAllowed]
            let written = try JSONSerialization.data(withJSONObject: mine, options: options)
            #expect(written.count > 1000, "\(file)")
            #expect(written == (try JSONSerialization.data(withJSONObject: foundation, options: options)), "\(file)")
        }
    }

    @Test func escapesAndUnicode() throws {
        let text = try Self.read(#"["a\"b\\c\/d\n\t\r\b\f", "\u0416\u00e9", "\ud83d\ude00", "Жёлтый 😀"]"#) as? [String]
        #expect(text == ["a\"b\\c/d\n\t\r\u{8}\u{c}", "Жé", "😀", "Жёлтый 😀"])
    }

    @Test func numbersAndLiterals() throws {
        let values = try Self.read(#"{"a": -12, "b": true, "c": false, "d": null, "e": 0}"#) as? [String: Any]
        #expect(values?["a"] as? Int == -12)
        #expect(values?["b"] as? Bool == true)
        #expect(values?["c"] as? Bool == false)
        #expect(values?["d"] is NSNull)
        #expect(values?["e"] as? Int == 0)
    }

    @Test(arguments: [
        "", " ", "{", "[1,]", "{\"a\":1,}", "[01]", "[1.]", "[1e]", "[-]", "{\"a\" 1}", "{a:1}", "[\"a\u{1}\"]",
        #"["\x"]"#, #"["\u12"]"#, #"["\ud800"]"#, #"["\udc00"]"#, "[1] 2", "[tru]", "[nul]", "\"abc",
        String(repeating: "[", count: 600) + String(repeating: "]", count: 600),
    ])
    func invalidDocumentsAreRefused(_ json: String) {
        #expect(throws: ImportError.self) {
            var reader = try JSONReader(Data(json.utf8))
            try reader.skipValue()
            try reader.finish()
        }
    }

    @Test func invalidUTF8IsRefused() {
        #expect(throws: ImportError.self) {
            var reader = try JSONReader(Data([0x5B, 0x22, 0xFF, 0x22, 0x5D]))
            try reader.skipValue()
        }
    }

    @Test func aWrongTypeNamesItsField() throws {
        var reader = try JSONReader(Data(#"{"a": [{"b": "x"}, {"b": null}]}"#.utf8))
        try reader.enterObject()
        #expect(try reader.nextKey()?.string == "a")
        try reader.enterArray()
        #expect(try reader.nextElement())
        try reader.enterObject()
        _ = try reader.nextKey()
        #expect(Self.message { try reader.readInt() } == "a[0].b: expected a whole number.")
        #expect(try reader.readString() == "x")
        #expect(try reader.nextKey() == nil)
        #expect(try reader.nextElement())
        try reader.enterObject()
        _ = try reader.nextKey()
        #expect(Self.message { try reader.requireString() } == "a[1].b: expected a string, found null.")
    }

    @Test func aMissingGroupNameIsSaid() {
        let json = #"{"studentGroupDto":{"name":"1"},"schedules":{"Понедельник":[{"studentGroups":[{"id":1}]}]}}"#
        #expect(
            Self.message { try IIS.read(Data(json.utf8), file: "x.json") }
                == "x.json: schedules.Понедельник[0].studentGroups[0].name: is missing.")
    }
}
