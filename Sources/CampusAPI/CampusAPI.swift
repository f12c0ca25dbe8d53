// The types of the Campus API are generated from openapi.yaml by swift-openapi-generator.
import Foundation

/// The OpenAPI document the API's types, the server's handlers and the client are generated from.
public enum CampusAPIDocument {
    public struct Missing: Error, CustomStringConvertible {
        public var description: String { "openapi.yaml is missing from the CampusAPI resource bundle." }
    }

    /// The document's YAML text.
    public static func yaml() throws -> String {
        guard let url = Bundle.module.url(forResource: "openapi", withExtension: "yaml") else { throw Missing() }
        return try String(contentsOf: url, encoding: .utf8)
    }
}
