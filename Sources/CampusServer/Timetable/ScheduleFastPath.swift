import CampusHTTP
import Foundation
import HTTPInput
import HTTPTypes
import Hummingbird
import NIOCore
import Timetable

/// Answers a group's, teacher's or room's schedule (`x-campus-fast-path: schedule`) before the
/// generated handler: the same document from the same code (``APIHandler/schedule(_:from:to:subgroup:subjects:)``),
/// written by ``ScheduleJSON`` rather than `JSONEncoder`, which cost a third of a fresh answer
/// (docs/BENCHMARKS.md). The request was validated against openapi.yaml before; problems go out
/// as the handler's would.
struct ScheduleFastPath: FastOperation {
    let timetable: TimetableService
    /// Checks the query of an early answer (``EarlyScheduleAnswer``).
    let validator: RequestValidator
    /// The answer cache, which keeps early answers as ``ResponseCacheMiddleware`` keeps the router's.
    let cache: ResponseCache
    /// Today's key in the answer cache.
    let today: @Sendable () -> String
    /// The paths routed here, for ``EarlyScheduleAnswer``.
    let paths = KnownPaths<Known>()

    /// A schedule whose path the router matched here before, made before the router.
    var early: (any EarlyAnswer)? { EarlyScheduleAnswer(schedules: self) }

    /// What a path routed here names: whose schedule, the operation, and whether its answers are kept.
    struct Known: Sendable {
        var target: TimetableService.Target
        var operation: RequestValidator.Operation
        var cached: Bool
    }

    /// The operations' `x-campus-fast-path`.
    static let name = FastOperationName.schedule
    static let contentType = "application/json; charset=utf-8"

    func answer(_ request: Request, context: CampusRequestContext) async throws -> Response? {
        guard request.method == .get else {
            return nil
        }
        let target: TimetableService.Target
        // The router leaves path parameters percent-encoded ("24-%D0%98…" for "24-И…").
        if let name = context.parameters.get("name") {
            target = .group(name.removingPercentEncoding ?? name)
        } else if let urlID = context.parameters.get("urlId") {
            target = .teacher(urlID.removingPercentEncoding ?? urlID)
        } else if let roomID = context.parameters.get("roomId", as: Int64.self) {
            target = .room(roomID)
        } else {
            return nil
        }
        let body = try await answer(target, to: request)
        if let template = context.endpointPath, let operation = validator.operation(method: .get, template: template) {
            paths.remember(
                request.uri.path, Known(target: target, operation: operation, cached: context.route?.cached == true))
        }
        return Response(status: .ok, headers: [.contentType: Self.contentType], body: ResponseBody(byteBuffer: body))
    }

    /// The schedule document of `target` for the request's dates, subgroup and subjects.
    func answer(_ target: TimetableService.Target, to request: Request) async throws -> ByteBuffer {
        let query = Query(request, target: target)
        let schedule = try await ScheduleDocuments(timetable: timetable).document(
            [target], from: query.from, to: query.to, filter: query.filter)
        return ByteBuffer(bytes: ScheduleJSON.encode(schedule))
    }

    /// The same document from what the timetable keeps in memory for `version` alone, or nil
    /// when any of it is not kept; made without waiting (``EarlyScheduleAnswer``).
    func keptAnswer(_ target: TimetableService.Target, to request: Request, version: String) throws -> ByteBuffer? {
        let query = Query(request, target: target)
        return try ScheduleDocuments(timetable: timetable).keptDocument(
            [target], from: query.from, to: query.to, filter: query.filter, version: version
        ).map { ByteBuffer(bytes: ScheduleJSON.encode($0)) }
    }

    /// What a schedule request's query asks for (checked against openapi.yaml before).
    private struct Query {
        var from: String?
        var to: String?
        var filter: ScheduleFilter

        init(_ request: Request, target: TimetableService.Target) {
            let query = request.uri.queryParameters
            let subgroup = query["subgroup"].flatMap { Int($0) }
            let subjects = query.getAll("subject").map { String($0) }
            from = query["from"].map(String.init)
            to = query["to"].map(String.init)
            filter = ScheduleDocuments.filter(subgroup: target.isGroup ? subgroup : nil, subjects: subjects)
        }
    }
}

extension TimetableService.Target {
    /// Only a group's schedule takes a subgroup.
    var isGroup: Bool {
        if case .group = self { true } else { false }
    }
}

extension FastOperationName {
    static let schedule = FastOperationName("schedule")
}
