import CampusHTTP
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOCore

/// A schedule made afresh before the router (``EarlyAnswerResponder``), for a path the router
/// matched to a schedule operation before (``ScheduleFastPath`` writes down the path, whose
/// schedule it is and the operation): after an IIS sync drops the answer cache, thousands of
/// students ask for their week at once, and the router and the middleware cost a fresh answer an
/// eighth of its time (docs/BENCHMARKS.md). The query is checked against openapi.yaml as
/// ``RequestValidationMiddleware`` checks it, the answer is ``ScheduleFastPath``'s and is kept in
/// the answer cache as ``ResponseCacheMiddleware`` keeps it. A query that is not valid, or any
/// error (an owner that has gone), leaves the request to the router, which answers it the usual way.
///
/// A schedule whose answers are kept is made at once, on the connection's event loop
/// (``ImmediateAnswer``), when the timetable's version was read within the last second and the
/// owner's lessons and the calendar are in memory for it (``TimetableService/keptSchedule(of:in:filter:version:)``);
/// it is kept and sent as a hit of the cache is (``CachedAnswer``). Otherwise it is made early, as above.
struct EarlyScheduleAnswer: ImmediateAnswer {
    let schedules: ScheduleFastPath
    let route = "schedule"

    func answer(_ request: Request, context: CampusRequestContext) async -> Response? {
        guard let known = schedules.paths.value(of: request.uri.path), takes(request, known) else { return nil }
        let version = known.cached ? try? await schedules.cache.currentVersion() : nil
        guard let body = try? await schedules.answer(known.target, to: request) else {
            return nil
        }
        guard let version else {
            return Response(status: .ok, headers: Self.headers, body: ResponseBody(byteBuffer: body))
        }
        return schedules.cache.keep(
            body, headers: Self.headers, version: version, for: request, today: schedules.today())
    }

    /// A path a schedule operation whose answers are kept answered before.
    func claim(_ head: HTTPRequest) -> ScheduleFastPath.Known? {
        guard let target = head.path else { return nil }
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
        guard let known = schedules.paths.value(of: path), known.cached else { return nil }
        return known
    }

    /// Whether the request's query is one openapi.yaml accepts for the operation.
    private func takes(_ request: Request, _ known: ScheduleFastPath.Known) -> Bool {
        (try? schedules.validator.checkParameters(
            of: known.operation, path: [:], query: RequestValidationMiddleware.query(of: request))) != nil
    }

    func immediateAnswer(_ known: ScheduleFastPath.Known, request: Request, context: CampusRequestContext)
        -> ImmediateResponse?
    {
        guard let version = schedules.cache.checkedVersion(), takes(request, known),
            let body = try? schedules.keptAnswer(known.target, to: request, version: version)
        else { return nil }
        return schedules.cache.keepImmediately(
            body, headers: Self.headers, version: version, for: request, today: schedules.today())
    }

    /// A schedule's headers, the security headers among them.
    private static let headers: HTTPFields = {
        var headers: HTTPFields = [.contentType: ScheduleFastPath.contentType]
        SecurityHeadersMiddleware.addBaseHeaders(to: &headers)
        return headers
    }()
}
