import Accounts
import Foundation
import HTTPInput
import HTTPTypes
import InputRules
import Timetable
import Yams

/// The request validator as the server builds it from openapi.yaml, with formats like the
/// server's (Sources/CampusServer/API/APIFormats.swift, which this package cannot import).
enum Shared {
    static let validator: RequestValidator = {
        let document = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
            "../../../Sources/CampusAPI/openapi.yaml")
        guard let text = try? String(contentsOf: document, encoding: .utf8),
            let parsed = try? Yams.load(yaml: text) as? [String: Any],
            let validator = try? RequestValidator(document: parsed, formats: formats)
        else { fatalError("openapi.yaml cannot be read from \(document.path)") }
        return validator
    }()

    static let formats: [String: RequestValidator.FormatCheck] = [
        "date": { text, field, name in
            guard case .failure(let problem) = LocalDate.read(iso: text) else { return nil }
            return LocalDate.fieldProblem(problem, field: field, name: name, example: "2023-09-25")
        },
        "date-time": { text, field, name in
            RFC3339.date(text) == nil
                ? FieldProblem(field: field, detail: "{field} is not a date-time.", ["field": name]) : nil
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

    /// Operations (method and path template) with a JSON body, path parameters or query
    /// parameters of every kind the document has.
    static let operations: [(HTTPRequest.Method, String)] = [
        (.post, "/api/v1/auth/register"), (.post, "/api/v1/competitions"),
        (.patch, "/api/v1/competitions/{competitionId}"),
        (.put, "/api/v1/competitions/{competitionId}/participants/{userId}/result"), (.post, "/api/v1/comments"),
        (.post, "/api/v1/player"), (.post, "/api/v1/schedule"), (.put, "/api/v1/feed/blocks"),
        (.get, "/api/v1/groups/{name}/schedule"), (.get, "/api/v1/search"), (.patch, "/api/v1/me"),
        (.get, "/api/v1/media/{mediaId}/stream"), (.post, "/api/v1/podcasts"), (.post, "/api/v1/library/uploads"),
    ]
}

/// The first byte picks an operation; the rest is its JSON body, its query string and its path
/// parameters.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ start: UnsafeRawPointer, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let data = Data(bytes: start, count: count)
    let (method, template) = Shared.operations[Int(data[data.startIndex]) % Shared.operations.count]
    let validator = Shared.validator
    guard let operation = validator.operation(method: method, template: template) else {
        fatalError("openapi.yaml has no \(method) \(template)")
    }
    let body = data.dropFirst()
    try? validator.checkBody(of: operation, Data(body))
    var query: [String: [String]] = [:]
    for pair in String(decoding: body, as: UTF8.self).split(separator: "&") {
        let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        let name = String(parts[0]).removingPercentEncoding ?? ""
        query[name, default: []].append(parts.count > 1 ? (String(parts[1]).removingPercentEncoding ?? "") : "")
    }
    // Every path parameter gets the input's text, as the router would hand it over.
    let text = String(decoding: body.prefix(200), as: UTF8.self)
    let path = ["competitionId": text, "userId": text, "name": text, "mediaId": text]
    try? validator.checkParameters(of: operation, path: path, query: query)
    return 0
}
