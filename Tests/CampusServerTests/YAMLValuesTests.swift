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
