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

/// A size in bytes, written for people ("1 MiB").
public struct ByteCount: CustomStringConvertible {
    public var bytes: Int
    public init(_ bytes: Int) { self.bytes = bytes }

    public var description: String {
        if bytes >= 1 << 20, bytes % (1 << 20) == 0 { return "\(bytes >> 20) MiB" }
        if bytes >= 1 << 10, bytes % (1 << 10) == 0 { return "\(bytes >> 10) KiB" }
        return "\(bytes) bytes"
    }
}
