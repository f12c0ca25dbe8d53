import Foundation
import HTTPTypes
import Hummingbird
import InputRules
import Localization

/// An error that a client caused and can correct, answered as an RFC 9457 problem document.
public struct Problem: Error, Sendable, Equatable {
    public var status: HTTPResponse.Status
    /// A URI reference naming the kind of problem; `about:blank` when the status says it all.
    public var type: String
    public var title: String
    /// The words, in English until a page or the API translates them.
    public var detail: String
    /// What the detail was made from: what a translation looks up and fills.
    public var phrase: Phrase
    public var errors: [FieldProblem]
    public var headers: HTTPFields

    /// `detail` is a literal message (scripts/extract-messages finds it); the changing parts
    /// are `values`: `Problem(.notFound, detail: "There is no room {id}.", ["id": "7"])`.
    public init(
        _ status: HTTPResponse.Status, type: String = "about:blank", title: String? = nil, detail message: String,
        _ values: [String: String] = [:], errors: [FieldProblem] = [], headers: HTTPFields = [:]
    ) {
        self.init(status, type: type, title: title, phrase: Phrase(message, values), errors: errors, headers: headers)
    }

    public init(
        _ status: HTTPResponse.Status, type: String = "about:blank", title: String? = nil, phrase: Phrase,
        errors: [FieldProblem] = [], headers: HTTPFields = [:]
    ) {
        self.status = status
        self.type = type
        self.title = title ?? status.reasonPhrase
        self.detail = phrase.text
        self.phrase = phrase
        self.errors = errors
        self.headers = headers
    }

    /// 429 with `Retry-After` for too many failed attempts (`/problems/too-many-attempts`): the
    /// first phrase when the wait is one minute, else the second; each names `{minutes}`, which
    /// is filled here (literal `Phrase("…")`s at the call, so the catalogue finds them).
    public static func tooManyAttempts(retryAfterSeconds: Int, oneMinute: Phrase, minutes: Phrase) -> Problem {
        let count = (retryAfterSeconds + 59) / 60
        var phrase = count == 1 ? oneMinute : minutes
        phrase.values["minutes"] = String(count)
        return Problem(
            .tooManyRequests, type: "/problems/too-many-attempts", title: "Too many failed attempts", phrase: phrase,
            headers: [.retryAfter: String(retryAfterSeconds)])
    }

    public static func badRequest(_ detail: String, _ values: [String: String] = [:]) -> Problem {
        Problem(.badRequest, detail: detail, values)
    }

    /// A 401; without a detail of its own, it says how to log in (a phrase, so it is translated).
    public static func unauthorized(_ detail: String? = nil) -> Problem {
        Problem(
            .unauthorized,
            phrase: detail.map { Phrase($0) } ?? Phrase("Log in first: send `Authorization: Bearer <token>`."),
            headers: [.wwwAuthenticate: "Bearer realm=\"campus\""])
    }

    public static func forbidden(_ detail: String, _ values: [String: String] = [:]) -> Problem {
        Problem(.forbidden, detail: detail, values)
    }

    public static func notFound(_ detail: String, _ values: [String: String] = [:]) -> Problem {
        Problem(.notFound, detail: detail, values)
    }

    public static func conflict(_ detail: String, _ values: [String: String] = [:]) -> Problem {
        Problem(.conflict, detail: detail, values)
    }

    public static func invalid(_ failure: ValidationFailure) -> Problem {
        Problem(
            .unprocessableContent, type: "/problems/invalid-fields", title: "Some fields are not valid",
            detail: failure.summary, errors: failure.problems)
    }

    public static func invalid(_ problem: FieldProblem) -> Problem { invalid(ValidationFailure([problem])) }

    public static func tooLarge(limit: Int) -> Problem {
        Problem(
            .contentTooLarge, detail: "The request body is larger than the limit of {limit}.",
            ["limit": ByteCount(limit).description])
    }

    public static func unsupportedMediaType(_ detail: String, _ values: [String: String] = [:]) -> Problem {
        Problem(.unsupportedMediaType, detail: detail, values)
    }

    /// A service's refusal as the API says it: the status of its reason, its kind as the type
    /// (`/problems/NAME`) and title, its fields, and the headers its reason needs (when to try
    /// again; how to log in).
    public init(_ refusal: Refusal) {
        var headers: HTTPFields = [:]
        let status: HTTPResponse.Status
        switch refusal.reason {
        case .malformed: status = .badRequest
        case .invalid: status = .unprocessableContent
        case .notSignedIn:
            status = .unauthorized
            headers[.wwwAuthenticate] = "Bearer realm=\"campus\""
        case .notAllowed: status = .forbidden
        case .notFound: status = .notFound
        case .gone: status = .gone
        case .conflict: status = .conflict
        case .tooLarge: status = .contentTooLarge
        case .unsupportedFormat: status = .unsupportedMediaType
        case .tooMany(let seconds):
            status = .tooManyRequests
            headers[.retryAfter] = String(seconds)
        case .unavailable(let seconds):
            status = .serviceUnavailable
            if let seconds { headers[.retryAfter] = String(seconds) }
        }
        if refusal.reason == .invalid, refusal.kind == nil {
            self = .invalid(ValidationFailure(refusal.fields))
        } else {
            self.init(
                status, type: refusal.kind.map { "/problems/\($0.name)" } ?? "about:blank", title: refusal.kind?.title,
                phrase: refusal.phrase, errors: refusal.fields, headers: headers)
        }
    }

    /// The JSON body of the problem document.
    public func body(instance: String?) -> Data {
        struct Document: Encodable {
            var type: String
            var title: String
            var status: Int
            var detail: String
            var instance: String?
            var errors: [Field]?
        }
        struct Field: Encodable {
            var field: String
            var detail: String
        }
        let document = Document(
            type: type, title: title, status: status.code, detail: detail, instance: instance,
            errors: errors.isEmpty ? nil : errors.map { Field(field: $0.field, detail: $0.detail) })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? encoder.encode(document)) ?? Data("{}".utf8)
    }

    public func response(instance: String?) -> Response {
        var headers = headers
        headers[.contentType] = "application/problem+json"
        headers[.cacheControl] = "no-store"
        return Response(
            status: status, headers: headers, body: ResponseBody(byteBuffer: ByteBuffer(data: body(instance: instance)))
        )
    }
}

extension Refusal {
    /// The status the API answers this refusal with, which a page refusing it answers with too.
    public var status: HTTPResponse.Status { Problem(self).status }
}

extension Problem {
    /// The headers a page answering this refusal repeats: `Retry-After` of a throttle.
    public var pageHeaders: HTTPFields {
        var fields = HTTPFields()
        if let retryAfter = headers[.retryAfter] { fields[.retryAfter] = retryAfter }
        return fields
    }
}
