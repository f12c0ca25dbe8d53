import CampusAPI
import Foundation
import Testing
import Yams

@testable import CampusServer

/// The one-walk reading of YAML must give what Yams' default resolver and constructor give: the
/// request validator reads the OpenAPI document's limits as numbers and its flags as booleans.
@Suite struct YAMLValuesTests {
    /// Yams' own reading of `yaml`.
    private func yams(_ yaml: String) throws -> Any? {
        try Yams.compose(yaml: yaml).map { Constructor.default.any(from: $0) }
    }

    private func ours(_ yaml: String) throws -> Any? {
        try YAMLValues.compose(yaml).map(YAMLValues.value)
    }

    @Test func theBundledDocumentReadsAsYamsReadsIt() throws {
        let yaml = try CampusAPIDocument.yaml()
        let expected = try #require(try yams(yaml) as? NSDictionary)
        let read = try #require(try ours(yaml) as? NSDictionary)
        #expect(read.isEqual(expected))
        // What the comparison covers: numbers and booleans, not only text.
        let paths = try #require(read["paths"] as? [String: Any])
        #expect(paths.count > 50)
    }

    /// The first place where two documents' values differ, by kind or value: a boolean is not the
    /// number 1, and a whole number is the same as that number written with a point (`2.0`, which
    /// JSON writes `2`).
    private func difference(_ a: Any, _ b: Any, at path: String = "") -> String? {
        switch (a, b) {
        case (let a as [String: Any], let b as [String: Any]):
            guard Set(a.keys) == Set(b.keys) else { return "\(path): keys \(Set(a.keys).symmetricDifference(b.keys))" }
            for (key, value) in a {
                if let found = b[key].flatMap({ difference(value, $0, at: "\(path)/\(key)") }) { return found }
            }
            return nil
        case (let a as [Any], let b as [Any]):
            guard a.count == b.count else { return "\(path): \(a.count) items, not \(b.count)" }
            return zip(a, b).enumerated().lazy.compactMap { self.difference($1.0, $1.1, at: "\(path)/\($0)") }.first
        case (let a as Bool, let b as Bool): return a == b ? nil : "\(path): \(a), not \(b)"
        case (is Bool, _), (_, is Bool): return "\(path): \(a) and \(b) are not both booleans"
        case (let a as Int, let b as Int): return a == b ? nil : "\(path): \(a), not \(b)"
        case (let a as Int, let b as Double), (let b as Double, let a as Int):
            return Double(a) == b ? nil : "\(path): \(a), not \(b)"
        case (let a as Double, let b as Double): return a == b ? nil : "\(path): \(a), not \(b)"
        case (let a as String, let b as String): return a == b ? nil : "\(path): \(a), not \(b)"
        case (is NSNull, is NSNull): return nil
        default: return "\(path): \(type(of: a)) \(a) and \(type(of: b)) \(b)"
        }
    }

    /// The server reads the document from the JSON form made at build time
    /// (Plugins/APIDocumentJSONPlugin): it says what the YAML says, kind by kind, and it is what
    /// `/openapi.json` serves.
    @Test func theJSONMadeAtBuildTimeSaysWhatTheYAMLSays() throws {
        let fromYAML = try #require(try ours(try CampusAPIDocument.yaml()))
        let fromJSON = try APIDocumentation.values(json: try CampusAPIDocument.json())
        #expect(difference(fromJSON, fromYAML) == nil, "\(difference(fromJSON, fromYAML) ?? "")")
        #expect(difference(try APIDocumentation.values(json: try APIDocumentation.bundled().json), fromYAML) == nil)
        // The comparison tells kinds apart: the document has booleans and numbers.
        let flags = try APIDocumentation.values(json: Data(#"{"a": true, "b": 1, "c": 2.5, "d": null}"#.utf8))
        let typed = try #require(flags as? [String: Any])
        #expect(typed["a"] is Bool && typed["b"] is Int && typed["c"] is Double && typed["d"] is NSNull)
        #expect(difference(typed["a"] as Any, 1) != nil && difference(typed["b"] as Any, 1.0) == nil)
    }

    @Test func everyKindOfScalarIsTypedAsYamsTypesIt() throws {
        let yaml = """
            integers: [0, 12, -3, +4, 0x1F, 0o17, 017, 1_000, 190:20:30]
            floats: [1.5, -2.5e3, .5, .inf, -.Inf, 6.8523015e+5, 1.0]
            booleans: [yes, No, TRUE, false, on, OFF, True]
            nulls: [~, null, NULL, ]
            dates: [2026-12-07, 2001-12-14t21:59:43.10-05:00]
            strings: [abc, "12", '3.5', "yes", Yesterday, null-ish, 1.2.0, 12abc, .hidden, ~x, <<x, =a, nope, onward]
            empty:
            block: |
              12
            merged:
              base: &base {a: 1, b: two}
              child:
                <<: *base
                b: 3
            tagged: !!str 12
            binary: !!binary aGVsbG8=
            "quoted key": 1
            """
        let expected = try #require(try yams(yaml) as? NSDictionary)
        let read = try #require(try ours(yaml) as? NSDictionary)
        for key in expected.allKeys {
            #expect((read[key] as? NSObject)?.isEqual(expected[key]) == true, "\(key): \(read[key] ?? "nil")")
        }
        #expect(read.isEqual(expected))
    }

    @Test func onlyWhatCouldBeANumberABooleanOrNullIsTyped() {
        for text in ["12", "-1", "+1", ".5", "~", "<<", "=", "yes", "Off", "NULL", ""] {
            #expect(YAMLValues.mayBeTyped(text), "\(text)")
        }
        for text in ["string", "Yesterday", "nope", "offset", "Nullable", "#/components/schemas/User", "true story"] {
            #expect(!YAMLValues.mayBeTyped(text), "\(text)")
        }
    }

    @Test func thePageAndTheVersionComeFromTheDocument() throws {
        let documentation = try APIDocumentation.bundled()
        #expect(!documentation.version.isEmpty)
        #expect(documentation.page.version == documentation.version)
        #expect(documentation.page.tags.count > 3)
        let operations = documentation.page.tags.flatMap(\.operations)
        // `required: true` is read as a boolean from a tree typed in one walk.
        #expect(operations.contains { $0.parameters.contains(where: \.required) })
        #expect(operations.contains { $0.needsLogin })
    }
}
