import Hummingbird

/// An operation answered before its generated handler: a route whose operation says
/// `x-campus-fast-path: NAME` in openapi.yaml (``RouteProperties/fastPath``) is answered by the
/// fast operation of that name, registered once in ``FastPathMiddleware``. What it does not answer
/// (nil) goes on to the generated handler, which answers it with the same rules.
public protocol FastOperation: Sendable {
    /// The name openapi.yaml's `x-campus-fast-path` gives the operation.
    static var name: String { get }
    /// The answer, or nil to leave the request to the operation's generated handler.
    func answer(_ request: Request, context: CampusRequestContext) async throws -> Response?
}

/// The one middleware of the fast paths: it asks the matched route which fast operation answers
/// it (one lookup by name) instead of every fast path looking at every request.
public struct FastPathMiddleware: RouterMiddleware {
    public typealias Context = CampusRequestContext

    /// Two operations registered under one name.
    public struct Duplicate: Error, CustomStringConvertible {
        public var name: String
        public var description: String { "Two fast operations are named \(name)." }
    }

    private let operations: [String: any FastOperation]

    /// The registry of `operations`; a name given twice throws ``Duplicate``.
    public init(_ operations: [any FastOperation]) throws {
        var byName: [String: any FastOperation] = [:]
        for operation in operations {
            let name = type(of: operation).name
            guard byName[name] == nil else { throw Duplicate(name: name) }
            byName[name] = operation
        }
        self.operations = byName
    }

    /// The names registered, sorted (checked against openapi.yaml's `x-campus-fast-path`s).
    public var names: [String] { operations.keys.sorted() }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let name = context.route?.fastPath, let operation = operations[name],
            let answer = try await operation.answer(request, context: context)
        else { return try await next(request, context) }
        return answer
    }
}
