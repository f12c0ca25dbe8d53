// The types of the Campus API are generated from openapi.yaml by swift-openapi-generator.
import Foundation

/// The OpenAPI document the API's types, the server's handlers and the client are generated from.
public enum CampusAPIDocument {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "openapi.yaml or openapi.json is missing from the CampusAPI resource bundle." }
    }

    /// The document's YAML text.
    public static func yaml() throws -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else { throw Missing() }
        return try String(contentsOf: url, encoding: .utf8)
    }

    /// The document as JSON, made from openapi.yaml at build time (Plugins/APIDocumentJSONPlugin):
    /// read in a tenth of the time the YAML takes.
    public static func json() throws -> Data {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "json") else { throw Missing() }
        return try Data(contentsOf: url)
    }
}
