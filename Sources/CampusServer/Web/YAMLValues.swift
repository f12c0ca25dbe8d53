import Foundation
import Yams

/// A YAML document's values as Yams' `Constructor.default` makes them (strings, integers,
/// doubles, booleans, `NSNull`, dates, `[String: Any]`, `[Any]`), read in one walk of a tree
/// composed with Yams' basic resolver.
///
/// Why not `Yams.load`: its default resolver types every plain scalar by trying seven regular
/// expressions, and resolves a node's tag again each time the node is hashed or compared (the
/// composer compares every mapping's keys): for the 340 KB OpenAPI document that was a third of
/// the server's start. Here only a plain scalar that could be something other than a string (it
/// starts with a digit, a sign, a dot, `~`, `<` or `=`, or is one of YAML 1.1's words for true,
/// false and null) is typed, by Yams' own resolver and constructor; every other scalar is its
/// text. Tested against `Constructor.default` on the bundled document.
enum YAMLValues {
    /// The tree of `yaml`, composed with the basic resolver (every scalar a string until typed
    /// here); nil for an empty document.
    static func compose(_ yaml: String) throws -> Node? {
        try Yams.compose(yaml: yaml, .basic)
    }

    /// The values of a tree made by ``compose(_:)``.
    static func value(_ node: Node) -> Any {
        switch node {
        case .scalar(let scalar):
            switch scalar.tag.rawValue {
            case Tag.Name.implicit.rawValue:
                // A plain scalar without a tag (its tag not resolved yet: `Node.tag` would).
                guard scalar.style == .plain, mayBeTyped(scalar.string) else { return scalar.string }
                return typed(scalar.string)
            case Tag.Name.nonSpecific.rawValue, Tag.Name.str.rawValue:
                return scalar.string
            default:
                // An explicit tag (`!!binary`, `!!int`): Yams constructs it.
                return Constructor.default.any(from: node)
            }
        case .mapping(let mapping):
            // A merge (`<<`) or value (`=`) key: Yams' own mapping construction, with its resolver.
            if mapping.keys.contains(where: { $0.scalar?.style == .plain && ($0.string == "<<" || $0.string == "=") }) {
                return Constructor.default.any(from: retyped(node))
            }
            var values: [String: Any] = [:]
            values.reserveCapacity(mapping.count)
            for (key, value) in mapping { values[key.string ?? ""] = Self.value(value) }
            return values
        case .sequence(let sequence):
            return sequence.map(value)
        case .alias:
            // The composer resolves aliases; none is left in a composed tree.
            return NSNull()
        }
    }

    /// A plain scalar as `Constructor.default` makes it, with the tag the default resolver gives
    /// it (`Constructor.default` itself is made anew, with its tables, each time it is asked for).
    private static func typed(_ text: String) -> Any {
        let scalar = Node.Scalar(text)
        let value: Any? =
            switch Resolver.default.resolveTag(of: .scalar(scalar)) {
            case .bool: Bool.construct(from: scalar)
            case .int: Int.construct(from: scalar) ?? Int64.construct(from: scalar)
            case .float: Double.construct(from: scalar)
            case .null: NSNull()
            case .timestamp: Date.construct(from: scalar)
            default: nil
            }
        return value ?? Constructor.default.any(from: .scalar(scalar))
    }

    /// YAML 1.1's words that the default resolver reads as booleans or null.
    private static let words: Set<String> = [
        "yes", "Yes", "YES", "no", "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
        "on", "On", "ON", "off", "Off", "OFF", "null", "Null", "NULL", "",
    ]

    /// Whether the default resolver could give a plain scalar a tag other than `!!str`: every
    /// number, timestamp, `.inf`, `.nan`, `~`, `<<` and `=` starts with one of these characters.
    static func mayBeTyped(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return true }
        switch first {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "+"), UInt8(ascii: "-"), UInt8(ascii: "."),
            UInt8(ascii: "~"), UInt8(ascii: "<"), UInt8(ascii: "="):
            return true
        default:
            return text.utf8.count <= 5 && words.contains(text)
        }
    }

    /// The same tree with every implicit tag resolved by the default resolver.
    private static func retyped(_ node: Node) -> Node {
        switch node {
        case .scalar(let scalar):
            // A mapping's keys were hashed by the composer (checking for duplicates), which
            // resolved their tags to `!!str`: a plain key is typed again too.
            guard scalar.style == .plain,
                [Tag.Name.implicit.rawValue, Tag.Name.str.rawValue].contains(scalar.tag.rawValue)
            else { return node }
            return Node(scalar.string)
        case .mapping(let mapping):
            return Node(mapping.map { (retyped($0.key), retyped($0.value)) })
        case .sequence(let sequence):
            return Node(sequence.map(retyped))
        case .alias:
            return node
        }
    }
}
