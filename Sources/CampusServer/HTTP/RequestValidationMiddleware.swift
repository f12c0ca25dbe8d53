import Accounts
import Foundation
import HTTPInput
import Hummingbird
import InputRules
import NIOCore
import Timetable

/// Runs ``RequestValidator`` on every request for an operation of the API.
struct RequestValidationMiddleware: RouterMiddleware {
    typealias Context = CampusRequestContext
    let validator: RequestValidator

    func handle(
        _ request: Request, context: Context, next: (Request, Context) async throws -> Response
    ) async throws -> Response {
        guard let operation = validator.operation(method: request.method, path: request.uri.path) else {
            return try await next(request, context)
        }
        var query: [String: [String]] = [:]
        for (key, value) in request.uri.queryParameters { query[String(key), default: []].append(String(value)) }
        try validator.checkParameters(of: operation, path: request.uri.path, query: query)
        guard operation.hasBody, request.headers[.contentType]?.lowercased().hasPrefix("application/json") == true
        else {
            return try await next(request, context)
        }
        let buffer = try await request.body.collect(upTo: context.bodyLimit)
        try validator.checkBody(of: operation, Data(buffer: buffer))
        var request = request
        request.body = RequestBody(buffer: buffer)
        return try await next(request, context)
    }
}

/// The string formats openapi.yaml uses, as Campus reads them: dates from 1900 to 2200, and
/// e-mail addresses as the account rules accept them.
enum APIFormats {
    static let checks: [String: RequestValidator.FormatCheck] = [
        "date": { text, field, name in
            guard case .failure(let problem) = LocalDate.read(iso: text) else { return nil }
            return FieldProblem(
                field: field, detail: LocalDate.problemText(problem, field: name, example: "2023-09-25"))
        },
        "date-time": { text, field, name in
            guard RFC3339.date(text) == nil else { return nil }
            return FieldProblem(
                field: field,
                detail: "\(name) must be an RFC 3339 date-time like 2026-11-22T09:00:00Z, from \(DateRules.rangeText).")
        },
        "email": { text, field, _ in
            do throws(FieldProblem) {
                _ = try AccountRules.email(text, field: field)
                return nil
            } catch {
                return error
            }
        },
    ]
}
