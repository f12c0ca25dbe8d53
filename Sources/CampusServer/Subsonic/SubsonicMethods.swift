/// Every Subsonic method by name, gathered from the groups that answer them into one table: a
/// name that two groups (or one group twice) answer stops the start, naming both, instead of one
/// of them being silently lost.
struct SubsonicMethods: Sendable {
    /// A method name answered twice.
    struct Duplicate: Error, CustomStringConvertible {
        var method: String
        var groups: [String]
        var description: String {
            "The Subsonic method \(method) is answered twice (\(groups.joined(separator: " and ")))."
        }
    }

    private let handlers: [String: SubsonicRoutes.Handler]

    /// The table of `groups`, each named (for the error) with its methods.
    init(_ groups: [(name: String, methods: KeyValuePairs<String, SubsonicRoutes.Handler>)]) throws {
        var handlers: [String: SubsonicRoutes.Handler] = [:]
        var owners: [String: String] = [:]
        for group in groups {
            for (method, handler) in group.methods {
                if let owner = owners[method] { throw Duplicate(method: method, groups: [owner, group.name]) }
                owners[method] = group.name
                handlers[method] = handler
            }
        }
        self.handlers = handlers
    }

    /// The handler of `method`, if Campus answers it.
    subscript(method: String) -> SubsonicRoutes.Handler? { handlers[method] }

    /// Every method's name, sorted.
    var names: [String] { handlers.keys.sorted() }
}
