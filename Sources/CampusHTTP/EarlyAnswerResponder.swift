import HTTPTypes
import Hummingbird
import Metrics
import NIOConcurrencyHelpers
import NIOHTTP1

/// An answer made before the router, from what a route answered or learned before: a kept answer
/// (``CachedAnswer``), a range of a media file whose path the router matched earlier.
///
/// An early answer matches no path of its own: it knows only paths (or cache keys) that the
/// router matched and the route's own middleware wrote down. Anything it is not sure of — an
/// unknown path, a query, missing or unknown credentials, an error — is nil, and the request goes
/// through the router and the middleware as usual, which answer it (problems included) the one
/// way they always do.
public protocol EarlyAnswer: Sendable {
    /// The `http.route` of its requests in the metrics.
    var route: String { get }
    /// The answer to a GET without a body, or nil to leave the request to the router.
    func answer(_ request: Request, context: CampusRequestContext) async -> Response?
}

/// Asks the early answers about a GET before the router and the middleware: going through the
/// router, the route lookup, the checks and Hummingbird's metrics middleware (which makes a
/// counter and a timer for every request) cost a cached schedule a fifth to a half of its
/// throughput, a small range of a media file a quarter of its time and a fresh schedule an eighth
/// (docs/BENCHMARKS.md). An early answer is logged and counted like any request, on counters
/// made once.
public struct EarlyAnswerResponder<Inner: HTTPResponder>: HTTPResponder
where Inner.Context == CampusRequestContext {
    public typealias Context = CampusRequestContext
    let inner: Inner
    let answers: [any EarlyAnswer]
    /// An error's words for the log, without any secret it carries (``ProblemMiddleware``).
    let logText: @Sendable (any Error) -> String

    public init(
        _ inner: Inner, answers: [any EarlyAnswer],
        logText: @escaping @Sendable (any Error) -> String = { "\(type(of: $0))" }
    ) {
        self.inner = inner
        self.answers = answers
        self.logText = logText
    }

    public func respond(to request: Request, context: Context) async throws -> Response {
        if request.method == .get, request.headers[.contentLength] == nil, request.headers[.transferEncoding] == nil {
            let start = ContinuousClock.now
            for early in answers {
                guard let response = await early.answer(request, context: context) else { continue }
                EarlyAnswerCounters.shared.count(route: early.route, status: response.status.code)
                RequestLogMiddleware.log(request, context, status: response.status.code, start: start)
                return response
            }
        }
        do {
            return try await inner.respond(to: request, context: context)
        } catch let error as HTTPParserError {
            // Hummingbird answers it (ParseErrorProblemHandler makes that a problem document).
            throw error
        } catch {
            // An error no middleware answered (the middleware outside ProblemMiddleware's).
            // Hummingbird would answer a bare 500 and log the error's description at debug,
            // whatever it carries of the request.
            context.logger.error(
                "unexpected error",
                metadata: ["error": "\(logText(error))", "path": "\(LoggedPath.of(request, context))"])
            return Response(status: .internalServerError)
        }
    }
}

/// The request counters of early answers, one per route and status, made the first time each is
/// needed (with the dimensions Hummingbird's metrics middleware gives its own); an answer made at
/// once (``ImmediateAnswerHandler``) is counted in `campus_immediate_answers` too.
final class EarlyAnswerCounters: Sendable {
    static let shared = EarlyAnswerCounters()
    private struct Key: Hashable {
        var route: String
        var status: Int
        var immediate: Bool
    }
    private let counters = NIOLockedValueBox<[Key: [Counter]]>([:])

    /// Counts one answer of `route` with `status`.
    func count(route: String, status: Int, immediate: Bool = false) {
        let counters = counters.withLockedValue { counters in
            let key = Key(route: route, status: status, immediate: immediate)
            if let kept = counters[key] { return kept }
            var made = [
                Counter(
                    label: "hb.requests",
                    dimensions: [
                        ("http.route", route), ("http.request.method", "GET"),
                        ("http.response.status_code", String(status)),
                    ])
            ]
            if immediate {
                made.append(Counter(label: "campus.immediate.answers", dimensions: [("http.route", route)]))
            }
            counters[key] = made
            return made
        }
        for counter in counters { counter.increment() }
    }
}

/// The paths the router matched to one route, each with what the route's middleware read from it
/// (the item, whose schedule): what an early answer knows a path by, without matching it.
public final class KnownPaths<Value: Sendable>: Sendable {
    /// Past this many paths, the list starts over.
    let capacity: Int
    private let paths = NIOLockedValueBox<[String: Value]>([:])

    public init(capacity: Int = 10_000) { self.capacity = capacity }

    public func remember(_ path: String, _ value: Value) {
        paths.withLockedValue { paths in
            if paths.count >= capacity, paths[path] == nil { paths.removeAll(keepingCapacity: true) }
            paths[path] = value
        }
    }

    public func value(of path: String) -> Value? { paths.withLockedValue { $0[path] } }
}
