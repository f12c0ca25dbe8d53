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
struct EarlyScheduleAnswer: EarlyAnswer {
    let schedules: ScheduleFastPath
    let route = "schedule"

    func answer(_ request: Request, context: CampusRequestContext) async -> Response? {
        guard let known = schedules.paths.value(of: request.uri.path),
            (try? schedules.validator.checkParameters(
                of: known.operation, path: [:], query: RequestValidationMiddleware.query(of: request))) != nil
        else { return nil }
        let version = known.cached ? try? await schedules.cache.currentVersion() : nil
        guard let body = try? await schedules.answer(known.target, to: request) else {
            return nil
        }
        var headers: HTTPFields = [.contentType: ScheduleFastPath.contentType]
        SecurityHeadersMiddleware.addBaseHeaders(to: &headers)
        guard let version else { return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body)) }
        return schedules.cache.keep(body, headers: headers, version: version, for: request, today: schedules.today())
    }
}
