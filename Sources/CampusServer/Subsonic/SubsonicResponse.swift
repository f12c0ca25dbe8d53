import Formats
import Foundation
import Hummingbird
import Localization
import NIOCore

/// One element of a Subsonic answer: attributes, child elements and text, written as XML
/// (`<song id="tr-3" …/>`) or as Subsonic's JSON (`"song": {"id": "tr-3", …}`). A child is one
/// element or a list: in JSON a list is an array even when it holds one element, as clients
/// expect.
struct SubsonicNode: Sendable, Encodable {
    enum Value: Sendable, Encodable {
        case string(String)
        case int(Int64)
        case double(Double)
        case bool(Bool)

        var text: String {
            switch self {
            case .string(let value): value
            case .int(let value): String(value)
            case .double(let value): String(value)
            case .bool(let value): value ? "true" : "false"
            }
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .string(let value): try container.encode(value)
            case .int(let value): try container.encode(value)
            case .double(let value): try container.encode(value)
            case .bool(let value): try container.encode(value)
            }
        }
    }

    enum Child: Sendable {
        case one(SubsonicNode)
        case many([SubsonicNode])
        /// Plain values: `<versions>1</versions>` in XML, `"versions": [1]` in JSON.
        case values([Value])
    }

    private(set) var attributes: [(String, Value)] = []
    private(set) var children: [(String, Child)] = []
    /// Text content: XML's text, JSON's `value`.
    var text: String?

    init() {}

    // MARK: Building

    mutating func set(_ name: String, _ value: String?) {
        if let value { attributes.append((name, .string(value))) }
    }

    mutating func set(_ name: String, _ value: Int?) {
        if let value { attributes.append((name, .int(Int64(value)))) }
    }

    mutating func set(_ name: String, _ value: Int64?) {
        if let value { attributes.append((name, .int(value))) }
    }

    mutating func set(_ name: String, _ value: Double?) {
        if let value { attributes.append((name, .double(value))) }
    }

    mutating func set(_ name: String, _ value: Bool?) {
        if let value { attributes.append((name, .bool(value))) }
    }

    /// Seconds (a duration) as a whole number of seconds.
    mutating func set(_ name: String, wholeSeconds seconds: Double?) {
        if let seconds { attributes.append((name, .int(Self.whole(seconds)))) }
    }

    /// Seconds (a position) as Subsonic's milliseconds.
    mutating func set(_ name: String, milliseconds seconds: Double?) {
        if let seconds { attributes.append((name, .int(Self.whole(seconds * 1000)))) }
    }

    /// A stored number as a whole one, whatever it holds: rounded, 0 when it is not finite,
    /// and within ±2^53 (`Int64(_:)` of a larger Double stops the process).
    static func whole(_ value: Double) -> Int64 {
        guard value.isFinite else { return 0 }
        return Int64(min(max(value.rounded(), -9_007_199_254_740_992), 9_007_199_254_740_992))
    }

    /// A date as Subsonic writes them: ISO 8601 in UTC.
    mutating func set(_ name: String, _ value: Date?) {
        if let value { attributes.append((name, .string(Self.dateText(value)))) }
    }

    mutating func add(_ name: String, _ node: SubsonicNode) { children.append((name, .one(node))) }

    mutating func add(_ name: String, list: [SubsonicNode]) { children.append((name, .many(list))) }

    mutating func add(_ name: String, values: [Value]) { children.append((name, .values(values))) }

    static func dateText(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    // MARK: JSON

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ name: String) { stringValue = name }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        for (name, value) in attributes { try container.encode(value, forKey: Key(name)) }
        if let text { try container.encode(text, forKey: Key("value")) }
        for (name, child) in children {
            switch child {
            case .one(let node): try container.encode(node, forKey: Key(name))
            case .many(let nodes): try container.encode(nodes, forKey: Key(name))
            case .values(let values): try container.encode(values, forKey: Key(name))
            }
        }
    }

    // MARK: XML

    /// Writes this node as the XML element `name` (``XMLWriter`` escapes every value, so the
    /// answer is well-formed whatever a title or an echoed parameter holds).
    func write(named name: String, to xml: inout XMLWriter, namespace: String? = nil) {
        var attributes = self.attributes.map { ($0.0, $0.1.text) }
        if let namespace { attributes.insert(("xmlns", namespace), at: 0) }
        guard text != nil || !children.isEmpty else {
            xml.element(name, nil, orderedAttributes: attributes)
            return
        }
        xml.open(name, attributes: attributes)
        if let text { xml.characters(text) }
        for (childName, child) in children {
            switch child {
            case .one(let node): node.write(named: childName, to: &xml)
            case .many(let nodes): for node in nodes { node.write(named: childName, to: &xml) }
            case .values(let values):
                for value in values { xml.element(childName, value.text, orderedAttributes: []) }
            }
        }
        xml.close(name)
    }
}

/// A whole answer, `ok` with its payload or `failed` with an error, in the format asked for.
struct SubsonicAnswer: Sendable {
    /// The version of the Subsonic API Campus speaks.
    static let apiVersion = "1.16.1"
    static let serverVersion = "1.0"
    /// The namespace of Subsonic's XML answers.
    static let namespace = "http://subsonic.org/restapi"

    enum Format: Sendable {
        case xml, json
    }

    var root = SubsonicNode()

    /// `status="ok"` with `payload` as the element `name`, if any.
    static func ok(_ name: String? = nil, _ payload: SubsonicNode = SubsonicNode()) -> SubsonicAnswer {
        var answer = SubsonicAnswer()
        answer.root = header(status: "ok")
        if let name { answer.root.add(name, payload) }
        return answer
    }

    /// `status="ok"` with a list of `name` elements at the top (OpenSubsonic's extensions).
    static func ok(_ name: String, list: [SubsonicNode]) -> SubsonicAnswer {
        var answer = SubsonicAnswer()
        answer.root = header(status: "ok")
        answer.root.add(name, list: list)
        return answer
    }

    /// `status="failed"` with the error's code, and its message in `t`'s language.
    static func failed(_ error: SubsonicError, _ t: Translator) -> SubsonicAnswer {
        var answer = SubsonicAnswer()
        answer.root = header(status: "failed")
        var node = SubsonicNode()
        node.set("code", error.code.rawValue)
        node.set("message", error.message(t))
        answer.root.add("error", node)
        return answer
    }

    private static func header(status: String) -> SubsonicNode {
        var node = SubsonicNode()
        node.set("status", status)
        node.set("version", apiVersion)
        node.set("type", "campus")
        node.set("serverVersion", serverVersion)
        node.set("openSubsonic", true)
        return node
    }

    func response(_ format: Format) throws -> Response {
        switch format {
        case .json:
            struct Envelope: Encodable {
                var root: SubsonicNode
                enum CodingKeys: String, CodingKey { case root = "subsonic-response" }
            }
            let data = try JSONEncoder().encode(Envelope(root: root))
            return Response(
                status: .ok, headers: [.contentType: "application/json; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(bytes: data)))
        case .xml:
            var xml = XMLWriter(indented: false)
            root.write(named: "subsonic-response", to: &xml, namespace: Self.namespace)
            return Response(
                status: .ok, headers: [.contentType: "text/xml; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: xml.text)))
        }
    }
}
