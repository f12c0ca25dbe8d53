import Hummingbird
import NIOConcurrencyHelpers

/// The name openapi.yaml's `x-campus-fast-path` gives an operation answered by a fast
/// operation; each is a constant beside its ``FastOperation`` (`FastOperationName.schedule`), and
/// the route table holds the name of the one that answers each route (``RouteProperties/fastPath``).
public struct FastOperationName: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    public var rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (a: Self, b: Self) -> Bool { a.rawValue < b.rawValue }
}

/// An operation answered before its generated handler: a route whose operation says
/// `x-campus-fast-path: NAME` in openapi.yaml is answered by the fast operation of that name,
/// registered once in ``FastPaths``. What it does not answer (nil) goes on to the generated
/// handler, which answers it with the same rules (the same value, ``FastPaths/answer()``, when
/// the typed answer cannot say it).
///
/// An operation may also answer before the router (``early``): a path the router matched to it
/// before, answered by ``EarlyAnswerResponder``, or even at once on the event loop when its early
/// answer is an ``ImmediateAnswer``.
public protocol FastOperation: Sendable {
    /// The name openapi.yaml's `x-campus-fast-path` gives the operation.
    static var name: FastOperationName { get }
    /// The answer, or nil to leave the request to the operation's generated handler.
    func answer(_ request: Request, context: CampusRequestContext) async throws -> Response?
    /// What answers the paths the router matched to this operation before, before the router.
    var early: (any EarlyAnswer)? { get }
}

extension FastOperation {
    public var early: (any EarlyAnswer)? { nil }
}

/// The registry of the fast operations: the one middleware of the fast paths (it asks the matched
/// route which fast operation answers it, one lookup by name, instead of every fast path looking
/// at every request), and the early answers the ``EarlyAnswerResponder`` asks before the router.
public struct FastPaths: RouterMiddleware {
    public typealias Context = CampusRequestContext

    /// Two operations registered under one name.
    public struct Duplicate: Error, CustomStringConvertible {
        public var name: FastOperationName
        public var description: String { "Two fast operations are named \(name)." }
    }

    /// A route whose `x-campus-fast-path` names no registered operation.
    public struct Unknown: Error, CustomStringConvertible {
        public var name: FastOperationName
        public var route: String
        public var description: String {
            "\(route) is answered by the fast operation \(name), which is not registered."
        }
    }

    private let operations: [FastOperationName: any FastOperation]

    /// The registry of `operations`; a name given twice throws ``Duplicate``.
    public init(_ operations: [any FastOperation]) throws {
        var byName: [FastOperationName: any FastOperation] = [:]
        for operation in operations {
            let name = type(of: operation).name
            guard byName[name] == nil else { throw Duplicate(name: name) }
            byName[name] = operation
        }
        self.operations = byName
    }

    /// Throws ``Unknown`` for a route (`"GET /path"`) whose fast operation is not registered: checked
    /// at start, so that a route never silently loses its fast path.
    public func check(_ routes: [String: RouteProperties]) throws {
        for (route, properties) in routes.sorted(by: { $0.key < $1.key }) {
            if let name = properties.fastPath, operations[name] == nil { throw Unknown(name: name, route: route) }
        }
    }

    /// The early answers of the operations, in the order of their names.
    public var earlyAnswers: [any EarlyAnswer] {
        operations.sorted { $0.key < $1.key }.compactMap { $0.value.early }
    }

    public func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let name = context.route?.fastPath, let operation = operations[name] else {
            return try await next(request, context)
        }
        if let answer = try await operation.answer(request, context: context) { return answer }
        // The generated handler may answer through the same operation (``answer()``): what it
        // answered is kept here, since the generated code wraps what its handler throws.
        let declined = Declined(request: request, context: context, operation: operation)
        return try await Self.$declined.withValue(declined) {
            do {
                return try await next(request, context)
            } catch {
                guard let response = declined.answered.withLockedValue({ $0 }) else { throw error }
                return response
            }
        }
    }

    /// A request a fast operation left to its generated handler.
    final class Declined: Sendable {
        let request: Request
        let context: CampusRequestContext
        let operation: any FastOperation
        /// The operation's answer, given through the generated handler.
        let answered = NIOLockedValueBox<Response?>(nil)

        init(request: Request, context: CampusRequestContext, operation: any FastOperation) {
            self.request = request
            self.context = context
            self.operation = operation
        }
    }
    @TaskLocal static var declined: Declined?

    /// Thrown through the generated code once the fast operation answered.
    struct Answered: Error {}

    /// For a generated handler whose typed answer cannot say what its fast operation sends (a
    /// media file's bytes with their own content type and validators): answers the request with its
    /// fast operation, as the whole answer. Returns only when there is none or it answers nil; the
    /// handler then says why.
    public static func answer() async throws {
        guard let declined,
            let response = try await declined.operation.answer(declined.request, context: declined.context)
        else { return }
        declined.answered.withLockedValue { $0 = response }
        throw Answered()
    }
}
