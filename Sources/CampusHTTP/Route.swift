import Foundation

/// A route's path pattern, as the router registers it (`/compete/{id}`).
public protocol RoutePattern: Sendable {
    var pattern: String { get }
}

/// A path of the site with its parameters, written once: the router registers its `pattern`
/// (`/compete/{competitionId}`) and links are made with `path(…)`, which fills the parameters in
/// order (percent-encoded), so a link and the route it leads to cannot drift apart.
public struct Route<Parameters>: RoutePattern {
    public let pattern: String

    public init(_ pattern: String) { self.pattern = pattern }

    /// The path with `values` in place of the pattern's parameters, in order.
    func fill(_ values: [String], query: [(String, String?)] = []) -> String {
        var result = ""
        var values = values.makeIterator()
        var rest = Substring(pattern)
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            result += rest[..<open]
            result += Self.segment(values.next() ?? "")
            rest = rest[rest.index(after: close)...]
        }
        result += rest
        let items = query.compactMap { name, value in value.map { "\(Self.queryPart(name))=\(Self.queryPart($0))" } }
        return items.isEmpty ? result : result + "?" + items.joined(separator: "&")
    }

    static func segment(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: URLCharacters.segment) ?? ""
    }

    static func queryPart(_ text: String) -> String { QueryEncoding.escape(text) }
}

/// Names and values written into a URL's query or an `application/x-www-form-urlencoded` body.
public enum QueryEncoding {
    /// A name or value with everything but the characters a query value keeps as they are
    /// percent-encoded (`&`, `=`, `+`, `?` and `#` among them).
    public static func escape(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: URLCharacters.query) ?? ""
    }

    /// `name=value&…`, each escaped.
    public static func encode(_ pairs: [(String, String)]) -> String {
        pairs.map { escape($0.0) + "=" + escape($0.1) }.joined(separator: "&")
    }

    /// `url` with `pairs` added to its query.
    public static func adding(_ pairs: [(String, String)], to url: String) -> String {
        url + (url.contains("?") ? "&" : "?") + encode(pairs)
    }
}

/// The characters a path segment and a query value keep as they are.
enum URLCharacters {
    static let segment = CharacterSet.urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#;"))
    static let query = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+?#"))
}

extension Route where Parameters == Void {
    public var path: String { pattern }

    public func path(query: [(String, String?)]) -> String { fill([], query: query) }
}

extension Route where Parameters: CustomStringConvertible {
    public func path(_ value: Parameters, query: [(String, String?)] = []) -> String {
        fill([value.description], query: query)
    }
}

/// Two parameters, such as `/albums/{albumId}/{itemId}`.
public struct Route2<First: CustomStringConvertible, Second: CustomStringConvertible>: RoutePattern {
    public let pattern: String

    public init(_ pattern: String) { self.pattern = pattern }

    public func path(_ first: First, _ second: Second, query: [(String, String?)] = []) -> String {
        Route<Void>(pattern).fill([first.description, second.description], query: query)
    }
}
